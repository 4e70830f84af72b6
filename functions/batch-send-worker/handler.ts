import { BatchContentCache } from '../../shared/batches/batch-content-cache';
import { deliverBatchJob } from '../../shared/batches/deliver-batch-job';
import { parseBatchSendJob } from '../../shared/batches/batch-jobs';
import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { campaignGate } from '../../shared/campaigns/campaign-gate';
import { services } from '../../shared/container';
import { MailMetrics } from '../../shared/metrics/mail-metrics';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';

/** Lives as long as the warm instance: the jobs of one batch read its content from S3 once. */
const contents = new BatchContentCache();

/**
 * Worker of the `batch-send` queue: sends every recipient of each job on its own, at most once, and
 * counts what was sent; a campaign wave's job is checked against its campaign first (cancel, pause).
 */
export const handler = sqsBatchHandler(
  async (record, batch) => {
    const job = parseBatchSendJob(record.body);
    const outcomes = await deliverBatchJob(batch.deps, job, batch.counters, contents, campaignGate(batch.deps, batch.campaigns));
    batch.metrics.add(job.project_id, 'Failed', outcomes.filter((o) => o === 'failed').length);
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
