import { expandChunk } from '../../shared/batches/batch-fanout';
import { parseChunkJob } from '../../shared/batches/batch-jobs';
import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { services } from '../../shared/container';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';

/** Worker of the `fanout` queue: writes the activity records of one chunk of a batch and queues its mails (a campaign, and the project's hourly counters, count its left-out recipients). */
export const handler = sqsBatchHandler((record, batch) => expandChunk(batch.deps, parseChunkJob(record.body), batch.campaigns, batch.stats), {
  start: () => ({ deps: services(), campaigns: new CampaignCounterBatch(), stats: new CounterBatch() }),
  finish: async ({ deps, campaigns, stats }) => {
    await Promise.all([campaigns.flush(deps.db), flushCounters(deps, stats)]);
  },
});
