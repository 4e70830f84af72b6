import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import { enqueueFire, isEarly, type FireMessage } from '..';
import { batchOfDueId } from '../../platform/store/keys';
import { chunkJobs } from './batch-jobs';
import { getBatch, startScheduledBatch } from './batch-repository';

/** What a fire message did with its batch. */
export type BatchFireOutcome = 'started' | 'requeued' | 'dropped';

/**
 * A scheduled batch at its time (a `scheduled` queue message from the sweep or the API): moves it
 * to `sending` once and queues its chunks for the fan-out. A message naming an older time (the
 * batch was moved) or a cancelled batch does nothing. A redelivery that finds the batch already
 * `sending` at the same time queues the chunks again: a crash may have come between the two
 * steps, and the fan-out expands a chunk once whatever its messages.
 */
export async function fireScheduledBatch(deps: Needs<'db' | 'queue' | 'clock'>, message: FireMessage): Promise<BatchFireOutcome> {
  const batchId = batchOfDueId(message.id);
  const batch = batchId ? await getBatch(deps.db, batchId, true) : undefined;
  const now = deps.clock.now();
  if (!batch || batch.scheduled_for !== message.scheduled_for || (batch.status !== 'scheduled' && batch.status !== 'sending')) {
    logger.debug('Batch fire message dropped', { id: message.id, status: batch?.status });
    return 'dropped';
  }
  if (batch.status === 'scheduled') {
    if (isEarly(batch.scheduled_for, now)) {
      await enqueueFire(deps.queue, { id: message.id, scheduled_for: batch.scheduled_for }, now);
      return 'requeued';
    }
    if (!(await startScheduledBatch(deps.db, batch.id, batch.scheduled_for, now.toISOString()))) {
      // Moved or cancelled since the read: the batch's state says what to do, and it is not this message's job.
      const again = await getBatch(deps.db, batch.id, true);
      if (again?.status !== 'sending' || again.scheduled_for !== message.scheduled_for) return 'dropped';
    }
  }
  await deps.queue.sendBatch('fanout', chunkJobs(batch));
  return 'started';
}

/** True when a `scheduled` queue message names a batch rather than a scheduled send. */
export const isBatchFire = (message: FireMessage): boolean => batchOfDueId(message.id) !== undefined;
