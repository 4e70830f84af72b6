import { groupRoutes } from '../../../shared/platform/http/route';
import { cancelBatch } from './cancel-batch';
import { listBatches } from './list-batches';
import { readBatch } from './read-batch';
import { rescheduleBatch } from './reschedule-batch';
import { sendBatch } from './send-batch';

/** Endpoint group `batches`: batch sends (4.3), the project's list of batches, and the management of scheduled batches (4.4). */
export const batchesRoutes = groupRoutes('batches', [sendBatch, listBatches, readBatch, rescheduleBatch, cancelBatch]);
