import * as z from '../zod';
import type { Queue } from '../ports';
import { schedules } from '../routes';

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
