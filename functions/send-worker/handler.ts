import { services } from '../../shared/container';
import { MailMetrics } from '../../shared/metrics/mail-metrics';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { deliverSend } from '../../shared/sending/deliver-send';
import { parseSendJob } from '../../shared/sending/send-job';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';

/** Send worker: hands each queued activity to SES, at most once, and counts what was sent per batch. */
export const handler = sqsBatchHandler(
  async (record, batch) => {
    const job = parseSendJob(record.body);
    if ((await deliverSend(batch.deps, job, batch.counters)) === 'failed') batch.metrics.add(job.project_id, 'Failed');
  },
  {
    start: () => ({ deps: services(), counters: new CounterBatch(), metrics: new MailMetrics() }),
    finish: async ({ deps, counters, metrics }) => {
      metrics.addCounters(counters);
      await flushCounters(deps, counters);
      metrics.publish();
    },
  },
);
