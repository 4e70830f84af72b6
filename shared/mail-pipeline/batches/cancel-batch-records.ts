import { fromItem, putActivitiesInBatch } from '../activity/activity-repository';
import type { Needs } from '../../platform/core/dependencies';
import { batchGetAll } from '../../platform/store/batch-get';
import { ttlAfterDays } from '../../platform/store/client';
import { activityKey } from '../../platform/store/keys';
import type { Batch } from './batch';
import { batchActivityId } from './batch-ids';

/** Records read and written back per step, and steps in flight (a 10,000-recipient batch is 20 steps). */
const STEP_SIZE = 500;
const PARALLEL_STEPS = 8;

/**
 * Marks the records a scheduled batch wrote at accept `cancelled`, once the batch itself left
 * `scheduled` for `cancelled` (a conditional write): each record is read back (BatchGet, strongly
 * consistent) and put again as `cancelled` with its status index entry (BatchWrite). Unconditional
 * puts are safe here: only a batch moved to `sending` has any mail claimed or sent. A batch whose
 * records were not all written at accept is left to its fan-out (queued by the cancel), which
 * writes what is missing as `cancelled`. Reads the table only (no payload object).
 */
export async function markBatchRecordsCancelled(deps: Needs<'db' | 'clock' | 'config'>, batch: Batch): Promise<void> {
  if (batch.records_written !== true) return;
  const now = deps.clock.now();
  const ttl = ttlAfterDays(now, deps.config.ACTIVITY_RETENTION_DAYS);
  const ids = Array.from({ length: batch.recipient_count }, (_, i) => batchActivityId(batch.id, i));
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const step = ids.slice(next, (next += STEP_SIZE));
      const items = await batchGetAll(deps.db, step.map((id) => ({ ...activityKey(id) })), undefined, { consistentRead: true });
      const queued = items.map(fromItem).filter((a) => a.current_status === 'queued' && a.project_id === batch.project_id);
      const cancelled = queued.map((a) => ({ ...a, current_status: 'cancelled' as const, updated_at: now.toISOString() }));
      await putActivitiesInBatch(deps.db, cancelled, ttl, 4);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_STEPS }, lane));
}
