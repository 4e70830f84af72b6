import type { Services } from '../container';
import { logger } from '../logger';
import type { FireMessage } from './scheduled-send-fire-message';
import { enqueueFire, fireDelaySeconds, SWEEP_LOOKAHEAD_SECONDS } from './scheduled-send-fire-message';
import { queryDueScheduledSends, type DueEntry } from './scheduled-send-repository';

/** Fire messages sent at once; the Queue port's batch send has no per-message delay, so delayed ones go one by one. */
const CONCURRENCY = 10;

/** What one sweep queued. */
export interface SweepResult {
  /** Sends found due within the lookahead. */
  due: number;
  /** Of those, already at or past their time (missed by an outage): queued without delay. */
  overdue: number;
}

/**
 * The minute sweep: every pending send due within the lookahead (one interval plus an overlap)
 * gets a fire message delayed until its time. Sends already due go out in batches of ten; the
 * rest one message each, since each needs its own delay (scheduled sends are few). A send may get
 * two messages (overlap, or the API's own early message): the worker's claim keeps one.
 */
export async function sweepScheduledSends(deps: Pick<Services, 'db' | 'queue' | 'clock'>): Promise<SweepResult> {
  const now = deps.clock.now();
  const due = await queryDueScheduledSends(deps.db, new Date(now.getTime() + SWEEP_LOOKAHEAD_SECONDS * 1000));
  const overdue = due.filter((entry) => fireDelaySeconds(new Date(entry.scheduledFor), now) === 0);
  const later = due.filter((entry) => fireDelaySeconds(new Date(entry.scheduledFor), now) > 0);

  const failures: unknown[] = [];
  if (overdue.length > 0) {
    await deps.queue.sendBatch('scheduled', overdue.map(fireMessage)).catch((error) => failures.push(error));
  }
  for (let i = 0; i < later.length; i += CONCURRENCY) {
    const results = await Promise.allSettled(later.slice(i, i + CONCURRENCY).map((entry) => enqueueFire(deps.queue, toSend(entry), now)));
    results.forEach((r) => r.status === 'rejected' && failures.push(r.reason));
  }
  if (failures.length > 0) {
    // Whatever was queued stays queued; the next sweep (or the scheduler's retry) covers the rest.
    logger.error('Scheduled sweep could not queue every send', { failures: failures.length, error: failures[0] as Error });
    throw new Error(`Scheduled sweep: ${failures.length} enqueue request(s) failed`);
  }
  return { due: due.length, overdue: overdue.length };
}

function toSend(entry: DueEntry): { id: string; scheduled_for: string } {
  return { id: entry.id, scheduled_for: entry.scheduledFor };
}

function fireMessage(entry: DueEntry): FireMessage {
  return { v: 1, id: entry.id, scheduled_for: entry.scheduledFor };
}
