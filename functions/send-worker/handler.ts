import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { campaignGate } from '../../shared/campaigns/campaign-gate';
import { services } from '../../shared/container';
import { MailMetrics } from '../../shared/metrics/mail-metrics';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { deliverMail, parseSendJob } from '../../shared/mail-pipeline';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';

/** Send worker: hands each queued activity to SES, at most once, and counts what was sent per batch (a campaign mail's retry counts for its campaign). */
export const handler = sqsBatchHandler(
  async (record, batch) => {
    const job = parseSendJob(record.body);
    if ((await deliverMail(batch.deps, job, batch.counters, campaignGate(batch.deps, batch.campaigns))) === 'failed') batch.metrics.add(job.project_id, 'Failed');
  },
  {
    start: () => ({ deps: services(), counters: new CounterBatch(), metrics: new MailMetrics(), campaigns: new CampaignCounterBatch() }),
    finish: async ({ deps, counters, metrics, campaigns }) => {
      metrics.addCounters(counters);
      await flushCounters(deps, counters);
      await campaigns.flush(deps.db);
      metrics.publish();
    },
  },
);
