/** How the engine puts a run's step on the `automations` queue: now, or delayed until a time within SQS's 15 minutes. */
import type { Needs } from '../../../platform/core/dependencies';
import type { EngineMessage } from '../engine-messages';
import { MAX_QUEUE_DELAY_SECONDS } from './engine-context';

/** A `step` message of a run (seq 0: whatever the run waits at, once its due time came; the sweep's). */
export const stepMessage = (runId: string, seq: number): EngineMessage => ({ kind: 'step', v: 1, run_id: runId, seq });

/** Seconds from `now` until `at`, within what SQS can delay (0 for a time past). */
export function delayUntil(at: Date, now: Date): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 1000)));
}

/** True when `at` is within SQS's longest delay of `now`: a delayed message reaches it. */
export const withinQueueDelay = (at: Date, now: Date): boolean => at.getTime() - now.getTime() <= MAX_QUEUE_DELAY_SECONDS * 1000;

/** Seconds past `now` at which the due entry of a wake that a queue message carries sits: after SQS's longest delay and a margin. */
export const SAFETY_NET_SECONDS = MAX_QUEUE_DELAY_SECONDS + 120;

/**
 * Where a wake at `at` sits in the due index: at its time, or, for a wake a delayed message carries,
 * past SQS's longest delay, so that the entry (the safety net should a crash lose the message) is
 * always ahead of the sweep's cursor, and the sweep meets it only when the message did not wake the run.
 */
export function dueIndexTime(at: Date, now: Date): string {
  return withinQueueDelay(at, now) ? new Date(now.getTime() + SAFETY_NET_SECONDS * 1000).toISOString() : at.toISOString();
}

/** Queues step `seq` of a run, delayed until `at` (at most 15 minutes; later times are the due index's). */
export async function queueStep(deps: Needs<'queue' | 'clock'>, runId: string, seq: number, at?: Date): Promise<void> {
  const delaySeconds = at ? delayUntil(at, deps.clock.now()) : 0;
  await deps.queue.send('automations', stepMessage(runId, seq), delaySeconds > 0 ? { delaySeconds } : undefined);
}
