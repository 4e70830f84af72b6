import * as z from '../platform/core/zod';
import type { Needs } from '../platform/core/dependencies';
import { logger } from '../platform/core/logger';
import type { Queue } from '../platform/core/ports';
import { schedules } from '../platform/core/routes';

/**
 * The deferred accept, one for every send with a `scheduled_at` (a scheduled send, a scheduled
 * batch): the producer stores the accepted send with its entry in the due index (gsi5), then
 * `deferAccept` queues its fire message at once when it is due within the sweep's lookahead; the
 * minute sweep (scheduling/scheduled-sweep.ts) queues every other one from the due index; the
 * `scheduled` queue's worker fires it at its time (`isEarly` sends a message that came early back
 * to wait). Both kinds share the index, the message, the delays and the tolerance; what firing does
 * stays each producer's own (a scheduled send becomes one mail, a batch queues its chunks).
 */

/** SQS's longest message delay. */
export const MAX_DELAY_SECONDS = 900;

/** Overlap added to the sweep interval, so that a late sweep leaves no gap between two windows. */
export const SWEEP_OVERLAP_SECONDS = 15;

/**
 * How far ahead the sweep (and the API, for a send created or moved) queues fire messages: one
 * sweep interval plus the overlap. A send in the overlap may get two messages; the claim dedups.
 */
export const SWEEP_LOOKAHEAD_SECONDS = schedules['scheduled-sweep'].everySeconds + SWEEP_OVERLAP_SECONDS;

/** The `scheduled` queue message: fire send `id` if it is still due at `scheduled_for`. */
export interface FireMessage {
  v: 1;
  id: string;
  /** The time this message was queued for; a rescheduled send no longer matches and drops it. */
  scheduled_for: string;
}

const fireMessageSchema = z.object({ v: z.literal(1), id: z.string().check(z.minLength(1)), scheduled_for: z.string().check(z.minLength(1)) });

/** Parses a `scheduled` queue message body; throws on anything else (it ends in the DLQ). */
export function parseFireMessage(body: string): FireMessage {
  return fireMessageSchema.parse(JSON.parse(body));
}

/** Whole seconds from `now` until `dueAt`, rounded up and clamped to what SQS allows; overdue is 0. */
export function fireDelaySeconds(dueAt: Date, now: Date): number {
  const seconds = Math.ceil((dueAt.getTime() - now.getTime()) / 1000);
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, seconds));
}

/** Whether a send due at `dueAt` falls in the window the sweep has already covered or is about to. */
export function isWithinLookahead(dueAt: Date, now: Date): boolean {
  return dueAt.getTime() <= now.getTime() + SWEEP_LOOKAHEAD_SECONDS * 1000;
}

/** Queues the fire message of a send, delayed until it is due (at most 900 s later). */
export async function enqueueFire(queue: Queue, send: { id: string; scheduled_for: string }, now: Date): Promise<void> {
  const message: FireMessage = { v: 1, id: send.id, scheduled_for: send.scheduled_for };
  await queue.send('scheduled', message, { delaySeconds: fireDelaySeconds(new Date(send.scheduled_for), now) });
}

/** A message may arrive this much before its time (clock skew, rounding) and still fire. */
export const EARLY_TOLERANCE_MS = 1000;

/** Whether a fire message for `scheduledFor` came too early to fire: it is queued again for the rest of the wait. */
export function isEarly(scheduledFor: string, now: Date): boolean {
  return now.getTime() < Date.parse(scheduledFor) - EARLY_TOLERANCE_MS;
}

/**
 * The second half of a deferred accept, after the send is stored in the due index: one due within
 * the sweep's lookahead gets its fire message now, so that it does not wait for the next sweep. If
 * that enqueue fails the sweep queues it (the send is stored, so the request has succeeded).
 */
export async function deferAccept(deps: Needs<'queue'>, due: { id: string; scheduled_for: string }, now: Date): Promise<void> {
  if (!isWithinLookahead(new Date(due.scheduled_for), now)) return;
  try {
    await enqueueFire(deps.queue, due, now);
  } catch (error) {
    logger.warn('Could not queue the fire message of a send due soon; the sweep will', { id: due.id, error: error as Error });
  }
}
