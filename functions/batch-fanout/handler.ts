import { expandChunk } from '../../shared/batches/batch-fanout';
import { parseChunkJob } from '../../shared/batches/batch-jobs';
import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { services } from '../../shared/container';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';

/** Worker of the `fanout` queue: writes the activity records of one chunk of a batch and queues its mails (a campaign counts its left-out recipients). */
export const handler = sqsBatchHandler((record, batch) => expandChunk(batch.deps, parseChunkJob(record.body), batch.campaigns), {
  start: () => ({ deps: services(), campaigns: new CampaignCounterBatch() }),
  finish: ({ deps, campaigns }) => campaigns.flush(deps.db),
});
