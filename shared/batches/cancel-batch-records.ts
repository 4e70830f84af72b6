import { putActivitiesInBatch } from '../activity/activity-repository';
import type { Services } from '../container';
import { ttlAfterDays } from '../store/client';
import type { Batch } from './batch';
import { batchActivityId } from './batch-ids';
import { batchRecipientActivity, storedRecipientActivity } from './batch-record';
import { loadBatchChunk } from './batch-repository';
import { withoutMetadata, unwritableProblem } from './unwritable-recipient';

/** BatchWrite requests in flight at once (a 10,000-recipient batch is 400). */
const WRITE_LANES = 16;

/**
 * Writes every recipient's record of a batch just cancelled while scheduled as `cancelled`
 * (BatchWrite, 1 write unit and its status index entry each). Unconditional puts are safe here:
 * the batch left `scheduled` for `cancelled` in a conditional write, and only a batch moved to
 * `sending` has any mail claimed or sent. Records keep the accept time as their creation time.
 */
export async function markBatchRecordsCancelled(deps: Pick<Services, 'db' | 'blobs' | 'clock' | 'config'>, batch: Batch): Promise<void> {
  const now = deps.clock.now();
  const times = { created_at: batch.created_at, updated_at: now.toISOString() };
  const ttl = ttlAfterDays(now, deps.config.ACTIVITY_RETENTION_DAYS);
  for (let chunk = 0; chunk < batch.chunk_count; chunk++) {
    const recipients = await loadBatchChunk(deps.blobs, batch.project_id, batch.id, chunk);
    const records = recipients.map((r, i) => {
      const recipient = unwritableProblem(r)?.field === 'metadata' ? withoutMetadata(r) : r;
      return storedRecipientActivity(batchRecipientActivity({ ...batch, status: 'cancelled' }, recipient, batchActivityId(batch.id, chunk * batch.chunk_size + i), 'cancelled', times));
    });
    await putActivitiesInBatch(deps.db, records, ttl, WRITE_LANES);
  }
}
