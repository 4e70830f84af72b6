import { SENDABLE_STATUSES, type Activity, type ActivityFailure, type FailureCode } from './activity/activity';
import { emailEvent, failedEvent, hasWebhookTargets, isApiSend } from './events/email-events';
import { suppressedEvent } from './suppression/suppression-events';
import type { ServiceEvent } from '../platform/core/events';
import { claimQueuedSend, claimSendAttempt, getActivity, type ClaimResult, markFailed, recordSentAfterEvent, transitionFromSendable } from './activity/activity-repository';
import type { Needs } from '../platform/core/dependencies';
import { senderPermission } from '../identities/domains/sender-service';
import { MailerError } from '../platform/core/ports';
import { getProject, getProjectCached } from '../platform/projects/project-repository';
import { logger } from '../platform/core/logger';
import { reserveMonthlySend } from './quota/send-quota';
import { WORKER_TIMEOUT_SECONDS } from '../platform/core/queues';
import { RetryLaterError } from '../platform/queue-worker/batch-handler';
import { ttlAfterDays } from '../platform/store/client';
import { findSuppressed } from './suppression/suppression-repository';
import { dayOf, type CounterBatch } from '../identities/stats/domain-stats';
import { domainOf } from '../platform/mail/addresses';
import { AttachmentError, resolveAttachments } from './attachments';
import { htmlToText } from '../platform/mail/html-text';
import { buildMime } from '../platform/mail/mime';
import { mailReplyTo } from './reply-token';
import { retryOrFail } from './retry';
import { loadPayload, type SendJob } from './job';
import { encodeMailBody } from './mail-body';
import { trackedHtml } from './tracking/tracking-service';

/** What became of one send job. */
export type DeliveryOutcome = 'sent' | 'suppressed' | 'failed' | 'retry_scheduled' | 'skipped';

/**
 * What a campaign's mail reports (given by the workers; shared/marketing/campaigns/campaign-gate.ts): its
 * outcome for the campaign's counters, once per transition, and SES throttling (`rate_limited`).
 */
export interface CampaignHooks {
  count(campaignId: string, field: 'sent' | 'failed' | 'suppressed' | 'cancelled', n?: number): void;
  throttled(campaignId: string): Promise<void>;
}

/** What delivering a mail touches: the record, the payload store, SES, attachment URLs, the retry queue, events. */
export type DeliverDeps = Needs<'db' | 'clock' | 'config' | 'queue' | 'blobs' | 'fetcher' | 'mailer' | 'events' | 'tokenSecret'>;

/** A claim outlives the worker's timeout, so only a crashed holder's claim can be taken over. */
const LEASE_SECONDS = WORKER_TIMEOUT_SECONDS + 5;

/**
 * THE deliverer: every mail, whatever sent it (an API send, a scheduled send at its time, a batch's
 * or a campaign wave's recipient, a retry), reaches SES here and nowhere else. One attempt of one
 * activity, at most once: the claim is a conditional write, so a redelivered message finds the
 * attempt taken (or the activity already final) and sends nothing. Then the policies decided at
 * the last moment (project, sender, suppression, quota), SES, and the record of what became of it;
 * a passing SES error goes to the one retry path (retry.ts).
 */
export async function deliverMail(deps: DeliverDeps, job: SendJob, counters?: CounterBatch, campaign?: CampaignHooks): Promise<DeliveryOutcome> {
  const { db, clock } = deps;
  const secret = await deps.tokenSecret();
  const payload = await loadPayload(deps.blobs, job);
  const now = clock.now();
  const leaseUntil = Math.floor(now.getTime() / 1000) + LEASE_SECONDS;
  const { claim, activity } = job.body_stored
    ? await claimQueuedSend(db, { activityId: job.activity_id, attempt: job.attempt, leaseUntil, now: Math.floor(now.getTime() / 1000) })
    : await claimWithBody(deps, job, encodeMailBody(deps, job.activity_id, payload, secret), leaseUntil, now);
  if (claim === 'skipped') {
    await republishSent(deps, job);
    return 'skipped';
  }
  if (claim === 'superseded') return 'skipped';
  // Another delivery of this message holds the claim right now.
  if (claim === 'busy') throw new RetryLaterError(`Attempt ${job.attempt} of ${job.activity_id} is being sent by another delivery`);
  if (!activity) throw new Error(`Activity ${job.activity_id} not found`);

  const at = () => clock.now().toISOString();
  const mode = activity.is_test ? 'test' : 'live';
  // Trusted for PROJECT_CACHE_SECONDS: a project disabled a moment ago stops sending within it.
  const project = await getProjectCached(db, clock, job.project_id);
  const publish = async (event: ServiceEvent) => {
    if (project && hasWebhookTargets(project)) await deps.events.publish(event);
  };
  const fail = async (error_code: FailureCode, error_message: string, permanent: boolean): Promise<DeliveryOutcome> => {
    const failure: ActivityFailure = { error_code, error_message, permanent };
    const now = at();
    // The transition happens once, so email.failed (or the campaign's count) does too.
    if (await markFailed(db, activity, failure, now)) {
      counters?.addProject(activity.project_id, mode, now, 'failed');
      if (isApiSend(activity)) await publish(failedEvent(activity, failure, now));
      else if (activity.campaign_id) campaign?.count(activity.campaign_id, 'failed');
    }
    return 'failed';
  };

  if (!project || project.disabled_at) return fail('send_failed', 'Project is disabled', true);

  if ((await senderPermission(deps, job.project_id, payload.from_email)) === 'none') {
    return fail('sender_not_verified', `Sender ${payload.from_email} is not verified for this project (domain ${domainOf(payload.from_email)})`, true);
  }

  const suppressed = await findSuppressed(db, job.project_id, [...payload.to, ...payload.cc, ...payload.bcc]);
  const keep = (list: string[]) => list.filter((a) => !suppressed.has(a.toLowerCase()));
  const to = keep(payload.to);
  const cc = keep(payload.cc);
  const bcc = keep(payload.bcc);
  if (to.length + cc.length + bcc.length === 0) {
    const entry = suppressed.get(payload.to[0].toLowerCase()) ?? [...suppressed.values()][0];
    const now = at();
    if (await transitionFromSendable(db, activity, 'suppressed', { suppression_reason: entry.reason, updated_at: now })) {
      counters?.addProject(activity.project_id, mode, now, 'suppressed');
      if (isApiSend(activity)) await publish(suppressedEvent(activity, entry, now));
      else if (activity.campaign_id) campaign?.count(activity.campaign_id, 'suppressed');
    }
    return 'suppressed';
  }
  // With some recipients suppressed, the mail still goes to the others.

  let resolved;
  try {
    resolved = await resolveAttachments(deps.fetcher, payload.attachments);
  } catch (error) {
    if (error instanceof AttachmentError) return fail('attachment_error', error.message, true);
    throw error;
  }
  // The attachment bytes count against the process's share until the mail has left.
  const attachments = resolved.attachments;
  try {
    const raw = await buildMime({
      from: { address: payload.from_email, name: payload.from_name },
      to,
      cc,
      replyTo: mailReplyTo(deps.config, activity.id, payload.reply_to, secret),
      subject: payload.subject,
      // Opens and clicks are tracked on the way out; the stored body keeps the original HTML.
      html: await trackedHtml(deps, activity, payload.html, secret, payload.untracked_links),
      // The plain-text part comes from the original HTML: readers of plain text see the real links.
      text: payload.text ?? htmlToText(payload.html),
      attachments,
      headers: payload.headers,
    });

    // Last step before SES: a mail refused earlier (suppressed, bad attachment) consumes no quota.
    const quota = await reserveMonthlySend(deps, project);
    if (!quota.ok) return fail('quota_exceeded', quota.message, false);

    let messageId: string;
    try {
      ({ messageId } = await deps.mailer.sendRaw({
        raw,
        from: payload.from_email,
        recipients: [...to, ...cc, ...bcc],
        tags: { activity_id: activity.id, project_id: job.project_id },
        // A project on its own SES tenant sends through it (its reputation apart from the others').
        ...(project.ses_tenant ? { tenantName: project.ses_tenant.name } : {}),
      }));
    } catch (error) {
      if (!(error instanceof MailerError)) throw error;
      // Nothing went out: a retry takes its unit again.
      await quota.release();
      // Throttling on a campaign's mail: the campaign goes `rate_limited` (the engine halves its pace), never to failure.
      if (error.kind === 'throttled' && activity.campaign_id) await campaign?.throttled(activity.campaign_id);
      return retryOrFail(deps, job, activity, error, fail);
    }

    const sentAt = at();
    // No `sent` timeline entry: sent_at tells it (activity/timeline.ts), and the record stays under 1 KB.
    const ownTransition = await afterSesAccepted(() => transitionFromSendable(db, activity, 'sent', { message_id: messageId, sent_at: sentAt, updated_at: sentAt }));
    // A fast Delivery (or Send) event may have moved the record on already: still record the send once.
    const recorded = ownTransition || (await afterSesAccepted(() => recordSentAfterEvent(db, activity.id, messageId, sentAt)));
    if (recorded) {
      counters?.add(job.project_id, domainOf(payload.from_email), dayOf(sentAt), activity.is_test ? 'sent_test' : 'sent');
      counters?.addProject(job.project_id, mode, sentAt, 'sent');
      if (activity.campaign_id) campaign?.count(activity.campaign_id, 'sent');
    }
    // Whoever moves the record to `sent` publishes email.send: this worker, or SES's Send event when it
    // came first (it published then). A crash between the write and this publish is repaired by the
    // redelivery, which publishes it again with the same event_timestamp (republishSent below).
    if (ownTransition) await publish(emailEvent('send', activity, { now: sentAt, eventTimestamp: sentAt, messageId }));
    return 'sent';
  } finally {
    resolved.release();
  }
}

/** Pauses before each further try of a write made after SES accepted the mail (1.5 s in all, well inside the worker timeout). */
const SENT_WRITE_BACKOFF_MS = [100, 200, 400, 800];

/**
 * A write after SES accepted the mail, tried again on a passing error (a throttle past the SDK's own
 * retries): thrown, it would fail the record, and its redelivery after the claim's lease would send
 * the mail a second time unless SES's Send event had recorded it first.
 */
async function afterSesAccepted<T>(write: () => Promise<T>): Promise<T> {
  for (const pause of SENT_WRITE_BACKOFF_MS) {
    try {
      return await write();
    } catch (error) {
      logger.warn('Recording a sent mail failed; trying again', { error: error as Error });
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  return write();
}

/**
 * A redelivered job whose mail this worker already sent: email.send again, with the `sent_at` the
 * record holds as its event_timestamp, so that a crash between the `sent` write and the publish
 * loses no event, and a receiver deduplicates the repeat on (event, activity_id, event_timestamp)
 * as part 6 says (when SES's Send event recorded the send first, it published with that same time).
 */
async function republishSent(deps: Needs<'db' | 'clock' | 'events'>, job: SendJob): Promise<void> {
  const activity = await getActivity(deps.db, job.activity_id, true);
  if (!activity?.sent_at || !activity.message_id) return;
  const project = await getProjectCached(deps.db, deps.clock, job.project_id);
  if (!project || !hasWebhookTargets(project)) return;
  await deps.events.publish(emailEvent('send', activity, { now: deps.clock.now().toISOString(), eventTimestamp: activity.sent_at, messageId: activity.message_id }));
}

/** The claim of a mail whose body the API did not store: the body write, then the record (consistent). */
async function claimWithBody(
  deps: Needs<'db' | 'config'>,
  job: SendJob,
  content: Uint8Array,
  leaseUntil: number,
  now: Date,
): Promise<{ claim: ClaimResult | 'skipped'; activity?: Activity }> {
  const claim = await claimSendAttempt(deps.db, {
    activityId: job.activity_id,
    attempt: job.attempt,
    content,
    leaseUntil,
    now: Math.floor(now.getTime() / 1000),
    ttl: ttlAfterDays(now, deps.config.ACTIVITY_RETENTION_DAYS),
  });
  if (claim === 'superseded') return { claim };
  const activity = await getActivity(deps.db, job.activity_id, true);
  if (!activity) throw new Error(`Activity ${job.activity_id} not found`);
  if (!SENDABLE_STATUSES.includes(activity.current_status)) return { claim: 'skipped' };
  return { claim, activity };
}

/**
 * Fails for good (`template_error`) a mail that could not be rendered for its recipient (a batch's
 * or a wave's), so it never reaches the claim; `email.failed` (or the campaign's count) once.
 */
export async function failUnrenderable(deps: Needs<'db' | 'events' | 'clock'>, activityId: string, message: string, campaign?: CampaignHooks): Promise<DeliveryOutcome> {
  const activity = await getActivity(deps.db, activityId, true);
  if (!activity) throw new Error(`Activity ${activityId} not found`);
  const failure = { error_code: 'template_error', error_message: message, permanent: true } as const;
  const now = deps.clock.now().toISOString();
  if (await markFailed(deps.db, activity, failure, now)) {
    if (!isApiSend(activity)) {
      if (activity.campaign_id) campaign?.count(activity.campaign_id, 'failed');
      return 'failed';
    }
    const project = await getProject(deps.db, activity.project_id);
    if (project && hasWebhookTargets(project)) await deps.events.publish(failedEvent(activity, failure, now));
  }
  return 'failed';
}
