import { fanoutScope } from '../../composition/worker-scopes/fanout';
import { expandChunk } from '../../shared/mail-pipeline/batches/batch-fanout';
import { parseChunkJob } from '../../shared/mail-pipeline/batches/batch-jobs';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** Worker of the `fanout` queue: writes the activity records of one chunk of a batch and queues its mails (a campaign, and the project's hourly counters, count its left-out recipients). */
export const handler = sqsBatchHandler((record, batch) => expandChunk(batch.deps, parseChunkJob(record.body), batch.campaigns, batch.stats), fanoutScope);
