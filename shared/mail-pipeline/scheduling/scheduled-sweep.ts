import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import { fireDelaySeconds, SWEEP_LOOKAHEAD_SECONDS, type FireMessage } from '..';
import { queryDueScheduledSends, type DueEntry } from './scheduled-send-repository';

/** What one sweep queued. */
export interface SweepResult {
  /** Sends found due within the lookahead. */
  due: number;
  /** Of those, already at or past their time (missed by an outage): queued without delay. */
  overdue: number;
}

/**
 * The minute sweep: every pending send due within the lookahead (one interval plus an overlap)
 * gets a fire message delayed until its time, ten to an SQS request (each entry carries its own
 * delay), so a minute with thousands of sends due is a few hundred requests. A send may get two
 * messages (overlap, or the API's own early message): the worker's claim keeps one.
 */
export async function sweepScheduledSends(deps: Needs<'db' | 'queue' | 'clock'>): Promise<SweepResult> {
  const now = deps.clock.now();
  const due = await queryDueScheduledSends(deps.db, new Date(now.getTime() + SWEEP_LOOKAHEAD_SECONDS * 1000));
  const delays = due.map((entry) => fireDelaySeconds(new Date(entry.scheduledFor), now));
  if (due.length > 0) {
    try {
      await deps.queue.sendBatch('scheduled', due.map(fireMessage), { delaySeconds: delays });
    } catch (error) {
      // Whatever was queued stays queued; the next sweep (or the scheduler's retry) covers the rest.
      logger.error('Scheduled sweep could not queue every send', { due: due.length, error: error as Error });
      throw error;
    }
  }
  return { due: due.length, overdue: delays.filter((d) => d === 0).length };
}

function fireMessage(entry: DueEntry): FireMessage {
  return { v: 1, id: entry.id, scheduled_for: entry.scheduledFor };
}
