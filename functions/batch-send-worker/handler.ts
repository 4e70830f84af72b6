import { BatchContentCache } from '../../shared/batches/batch-content-cache';
import { deliverBatchJob } from '../../shared/batches/deliver-batch-job';
import { parseBatchSendJob } from '../../shared/batches/batch-jobs';
import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { campaignGate } from '../../shared/campaigns/campaign-gate';
import { services } from '../../shared/container';
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
  (record, batch) => deliverBatchJob(batch.deps, parseBatchSendJob(record.body), batch.counters, contents, campaignGate(batch.deps, batch.campaigns)),
  {
    start: () => ({ deps: services(), counters: new CounterBatch(), campaigns: new CampaignCounterBatch() }),
    finish: async ({ deps, counters, campaigns }) => {
      await flushCounters(deps, counters);
      await campaigns.flush(deps.db);
    },
  },
);
