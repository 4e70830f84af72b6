import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { AppError } from '../../platform/core/errors';
import { logger } from '../../platform/core/logger';
import { getProject } from '../../platform/projects/project-repository';
import type { ScheduledSendContent } from '../mail/advanced-send-types';
import type { ScheduledSend } from './scheduled-send';
import { enqueueFire, isEarly, type AcceptDeps, type FireMessage } from '..';
import { claimScheduledSend, getScheduledSend, markScheduledSendFailed } from './scheduled-send-repository';

/** What firing a scheduled send touches: its item, and the pipeline's accept (with `email.failed` for a mail that cannot be built). */
export type FireDeps = AcceptDeps & Needs<'events'>;

/**
 * Sends a scheduled send's content now, as the activity `activityId` (the advanced send's
 * `sendScheduledNow`). Passed in by the worker, because sending depends on scheduling and not the
 * other way round.
 */
export type SendNow = (deps: FireDeps, caller: ProjectCaller, content: ScheduledSendContent, activityId: string) => Promise<void>;

/** Why a fire message does nothing. */
export type DropReason = 'missing' | 'cancelled' | 'failed' | 'rescheduled' | 'claimed-elsewhere';

/** What a fire message does with the send it names. */
export type FireDecision =
  | { action: 'drop'; reason: DropReason }
  /** Pending, but the message came early: queue a fresh one for the rest of the wait. */
  | { action: 'requeue' }
  /** Pending and due: claim it, then send. */
  | { action: 'claim' }
  /** Already claimed by this very message (a redelivery after a crash): finish the send. */
  | { action: 'resume' };

/**
 * The decision table of a fire message. `messageId` is the SQS message id, stable across
 * redeliveries of one message: a send in `processing` is finished only by the message that
 * claimed it, so a duplicate message (the sweep's overlap, the API's early enqueue) never runs the
 * send alongside the claimer.
 */
export function decideFire(send: ScheduledSend | undefined, message: FireMessage, messageId: string, now: Date): FireDecision {
  if (!send) return { action: 'drop', reason: 'missing' };
  if (send.status === 'cancelled' || send.status === 'failed') return { action: 'drop', reason: send.status };
  // A moved send has a newer message of its own; this one names the old time.
  if (Date.parse(send.scheduled_for) !== Date.parse(message.scheduled_for)) return { action: 'drop', reason: 'rescheduled' };
  if (send.status === 'processing') return send.claimed_by === messageId ? { action: 'resume' } : { action: 'drop', reason: 'claimed-elsewhere' };
  if (isEarly(send.scheduled_for, now)) return { action: 'requeue' };
  return { action: 'claim' };
}

/**
 * Handles one `scheduled` queue message: reads the send (strongly consistent, so a PATCH or
 * DELETE just made is seen), claims it and hands it to the advanced send, which creates the
 * activity `email_id` and queues the mail. A permanent refusal (AppError below 500: project
 * disabled, template deleted...) marks the send `failed`; anything else is thrown, for SQS to retry.
 */
export async function fireScheduledSend(deps: FireDeps, message: FireMessage, messageId: string, sendNow: SendNow): Promise<FireDecision> {
  const now = deps.clock.now();
  const send = await getScheduledSend(deps.db, message.id, true);
  const decision = decideFire(send, message, messageId, now);
  if (decision.action === 'drop' || !send) {
    logger.debug('Scheduled send message dropped', { id: message.id, decision });
    return decision;
  }
  if (decision.action === 'requeue') {
    await enqueueFire(deps.queue, send, now);
    return decision;
  }
  if (decision.action === 'claim') {
    const claimed = await claimScheduledSend(deps.db, { id: send.id, scheduledFor: send.scheduled_for, claimedBy: messageId, now: now.toISOString() });
    if (!claimed) {
      // Another message claimed it a moment ago, or it was moved or cancelled since the read; or our
      // own claim was applied and the SDK retried it: then the send names this message and goes on.
      const again = decideFire(await getScheduledSend(deps.db, message.id, true), message, messageId, now);
      if (again.action !== 'resume') return again.action === 'drop' ? again : { action: 'drop', reason: 'claimed-elsewhere' };
    }
  }
  await deliver(deps, send, sendNow);
  return decision;
}

/** Sends a claimed send in its project and mode; records a permanent refusal on the send. */
async function deliver(deps: FireDeps, send: ScheduledSend, sendNow: SendNow): Promise<void> {
  const project = await getProject(deps.db, send.project_id);
  if (!project) {
    await markScheduledSendFailed(deps.db, send.id, 'Project not found', deps.clock.now().toISOString());
    return;
  }
  const caller: ProjectCaller = { kind: 'project', mode: send.mode, project };
  try {
    await sendNow(deps, caller, send.content, send.email_id);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    logger.info('Scheduled send refused at its time', { id: send.id, status: error.status, error: error.message });
    await markScheduledSendFailed(deps.db, send.id, error.message, deps.clock.now().toISOString());
  }
}
