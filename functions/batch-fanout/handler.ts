import { expandChunk } from '../../shared/batches/batch-fanout';
import { parseChunkJob } from '../../shared/batches/batch-jobs';
import { services } from '../../shared/container';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';

/** Worker of the `fanout` queue: writes the activity records of one chunk of a batch and queues its mails. */
export const handler = sqsBatchHandler((record) => expandChunk(services(), parseChunkJob(record.body)));
