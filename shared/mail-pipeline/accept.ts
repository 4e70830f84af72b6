import { randomUUID } from 'node:crypto';
import type { Activity, ActivityFailure } from './activity/activity';
import { markFailed, putActivity, putActivityBody } from './activity/activity-repository';
import type { ProjectCaller } from '../platform/auth/authenticate';
import type { Needs } from '../platform/core/dependencies';
import { AppError } from '../platform/core/errors';
import { failedEvent, hasWebhookTargets, isApiSend } from './events/email-events';
import { ttlAfterDays } from '../platform/store/client';
import { writtenUnlessConditionFails } from '../platform/store/conditional-write';
import { encodeMailBody } from './mail-body';
import { packSendJob, type SendPayload } from './job';

/** What accepting a mail touches: the record and its body, the queue, the clock, the signing secret. */
export type AcceptDeps = Needs<'db' | 'queue' | 'blobs' | 'clock' | 'config' | 'tokenSecret'>;

/** What every accepted send has: its payload and the record's own fields. */
export interface QueuedSend {
  payload: SendPayload;
  emailType: string;
  environment?: string;
  recipientCount: number;
  /** A pre-chosen id, when links in the mail must name the activity before it exists. */
  activityId?: string;
  templateId?: string;
  campaignId?: string;
  automationRunId?: string;
  /** Internal, for an automation's mail: `<automation_id>/<step_id>`, whose counters its delivery events add to. */
  automationStep?: string;
  threadId?: string;
  source?: string;
}

/**
 * Writes the activity record (`queued`) and enqueues its send job. If the queue refuses the job the
 * send is not accepted: the record is marked failed and the caller gets 502.
 */
export async function queueSend(deps: AcceptDeps, caller: ProjectCaller, send: QueuedSend): Promise<string> {
  const [id] = await queueSends(deps, caller, [send]);
  return id;
}

/**
 * Writes the activity records (`queued`) of several mails and enqueues their send jobs, ten to an
 * SQS request. All or nothing for the caller: if any record or job cannot be written, every
 * record that was written is marked failed (the worker skips a failed record even if its job got
 * through) and the caller gets 502, so a retry cannot send a mail twice.
 */
export async function queueSends(
  deps: AcceptDeps,
  caller: ProjectCaller,
  sends: QueuedSend[],
  /**
   * `keep-queued`: on an enqueue failure leave the records `queued` (the caller's own redelivery
   * queues their jobs again, as a scheduled send's worker does); the default fails them.
   */
  onEnqueueFailure: 'fail-records' | 'keep-queued' = 'fail-records',
): Promise<string[]> {
  const now = deps.clock.now().toISOString();
  const ttl = ttlAfterDays(deps.clock.now(), deps.config.ACTIVITY_RETENTION_DAYS);
  const activities = sends.map((send) => newActivity(caller, send, now));
  const secret = await deps.tokenSecret();
  // The body is stored now, beside the record, so that include=html shows the mail while it waits.
  const [puts, bodies] = await Promise.all([
    Promise.allSettled(activities.map((activity) => putActivity(deps.db, activity, ttl))),
    Promise.allSettled(activities.map((activity, i) => putActivityBody(deps.db, activity.id, encodeMailBody(deps, activity.id, sends[i].payload, secret), ttl))),
  ]);
  const written = activities.filter((_, i) => puts[i].status === 'fulfilled');
  try {
    const failedPut = [...puts, ...bodies].find((p): p is PromiseRejectedResult => p.status === 'rejected');
    if (failedPut) throw failedPut.reason;
    const jobs = await Promise.all(activities.map((activity, i) => packStoredSendJob(deps, caller.project.id, activity.id, sends[i].payload)));
    if (jobs.length === 1) await deps.queue.send('send', jobs[0]);
    else await deps.queue.sendBatch('send', jobs);
  } catch (error) {
    // Not accepted: say so in the records too, so that none sits in `queued` forever.
    const failure = { error_code: 'send_failed', error_message: 'The email could not be queued', permanent: false } as const;
    if (onEnqueueFailure === 'fail-records') {
      await Promise.all(written.map((activity) => markFailed(deps.db, activity, failure, now).catch(() => undefined)));
    }
    throw new AppError(502, 'Failed to process request', undefined, {}, { cause: error });
  }
  return activities.map((a) => a.id);
}

/** The first send job of a mail whose body is stored (the worker claims on the record). */
export function packStoredSendJob(deps: Needs<'blobs'>, projectId: string, activityId: string, payload: SendPayload) {
  return packSendJob(deps.blobs, { activity_id: activityId, project_id: projectId, attempt: 1, body_stored: true }, payload);
}

/**
 * Records a send that was accepted earlier (a scheduled send at its time) but cannot be built: the
 * activity is written and failed at once, and `email.failed` is emitted once, like a failure in
 * the send worker. Idempotent on `send.activityId`: a redelivery finds the record and changes nothing.
 */
export async function recordFailedSend(deps: Needs<'db' | 'clock' | 'config' | 'events'>, caller: ProjectCaller, send: QueuedSend, failure: ActivityFailure): Promise<void> {
  const now = deps.clock.now().toISOString();
  const activity = newActivity(caller, send, now);
  // Lost (a redelivery finds the record written): the failure below is then a no-op too.
  await writtenUnlessConditionFails(putActivity(deps.db, activity, ttlAfterDays(deps.clock.now(), deps.config.ACTIVITY_RETENTION_DAYS)));
  if ((await markFailed(deps.db, activity, failure, now)) && isApiSend(activity) && hasWebhookTargets(caller.project)) {
    await deps.events.publish(failedEvent(activity, failure, now));
  }
}

/** A new `queued` activity record for one accepted send. */
function newActivity(caller: ProjectCaller, send: QueuedSend, now: string): Activity {
  const { payload } = send;
  return {
    id: send.activityId ?? randomUUID(),
    project_id: caller.project.id,
    created_at: now,
    updated_at: now,
    email_type: send.emailType,
    campaign_id: send.campaignId,
    automation_run_id: send.automationRunId,
    automation_step: send.automationStep,
    template_id: send.templateId,
    thread_id: send.threadId,
    source: send.source,
    subject: payload.subject,
    sender_email: payload.from_email,
    sender_name: payload.from_name,
    // Lowercased, as the recipient filter of the activity list matches it (keys.ts, gsi3).
    recipient_primary: payload.to[0].toLowerCase(),
    // Absent means 1, the usual case: 23 bytes less of a record that must stay under 1 KB.
    recipient_count: send.recipientCount > 1 ? send.recipientCount : undefined,
    current_status: 'queued',
    is_test: caller.mode === 'test',
    environment: send.environment,
  };
}
