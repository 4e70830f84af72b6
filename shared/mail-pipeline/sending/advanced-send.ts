import { randomUUID } from 'node:crypto';
import { getActivity, putActivityBody } from '../activity/activity-repository';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { type AppError, notFound } from '../../platform/core/errors';
import { createScheduledSend } from '../scheduling/scheduled-send-service';
import type { Template } from '../templates/template';
import { TEMPLATE_SEND_MESSAGES } from './template-send-request';
import { isTemplateError } from '../templates/render';
import { findTemplate } from '../templates/template-service';
import {
  checkProjectCanSend,
  composeMail,
  encodeMailBody,
  HTML_PREVIEW_LIMIT,
  packStoredSendJob,
  queueSends,
  recordFailedSend,
  resolveScheduledAt,
  type AcceptDeps,
  type ComposedMail,
  type MailContent,
  type QueuedSend,
  type ResolvedSchedule,
} from '..';
import type { AdvancedSendInput, ScheduledSendContent } from '../mail/advanced-send-types';
import { ttlAfterDays } from '../../platform/store/client';

/**
 * `POST /send-email` (part 4.5): a dry run (nothing written), a scheduled send (one recipient,
 * kept until its time), or an immediate send of one mail per recipient.
 */
export async function acceptAdvancedSend(deps: AcceptDeps, caller: ProjectCaller, input: AdvancedSendInput, requestBaseUrl?: string) {
  checkProjectCanSend(caller, input.environment);
  const template = input.templateId ? await requireTemplate(deps, caller.project.id, input.templateId) : undefined;
  const schedule = input.scheduledAt
    ? resolveScheduledAt(input.scheduledAt, { timezone: input.timezone, projectTimezone: caller.project.timezone, now: deps.clock.now() })
    : undefined;

  if (input.dryRun) return dryRun(deps, caller, input, template, schedule, requestBaseUrl);
  if (schedule) return scheduleSend(deps, caller, input, template, schedule);

  const secret = await deps.tokenSecret();
  const mails = input.recipients.map((recipient) => {
    const activityId = randomUUID();
    const composed = composeMail(deps, {
      content: mailContent(input, recipient),
      template,
      activityId,
      projectId: caller.project.id,
      secret,
      requestBaseUrl,
    });
    return { recipient, send: queuedSend(input, template, composed, activityId) };
  });
  const ids = await queueSends(deps, caller, mails.map((m) => m.send));
  return {
    success: true,
    message: mails.length === 1 ? 'Email queued for sending' : `${mails.length} emails queued for sending`,
    email_id: ids[0],
    emails: mails.map((m, i) => ({ recipient: m.recipient, email_id: ids[i] })),
    project_id: caller.project.id,
  };
}

/**
 * Sends a scheduled send now (the scheduled-send worker calls this at its time). Idempotent on
 * `activityId`: a second call finds the activity and only re-queues its job while it is still
 * `queued` (the send worker's claim makes a duplicate job harmless). Permanent problems (project
 * disabled, environment removed, template deleted or empty) throw an AppError below 500.
 */
export async function sendScheduledNow(deps: AcceptDeps & Needs<'events'>, caller: ProjectCaller, content: ScheduledSendContent, activityId: string): Promise<void> {
  checkProjectCanSend(caller, content.environment);
  const template = content.templateId ? await requireTemplate(deps, caller.project.id, content.templateId) : undefined;
  let composed: ComposedMail;
  try {
    composed = composeMail(deps, {
      content: { ...content, cc: [], bcc: [], attachments: [] },
      template,
      activityId,
      projectId: caller.project.id,
      secret: await deps.tokenSecret(),
    });
  } catch (error) {
    // The template changed (or its data grew) since the send was accepted: the mail fails for good.
    if (isTemplateError(error)) await recordTemplateFailure(deps, caller, content, template, activityId, error);
    throw error;
  }
  const existing = await getActivity(deps.db, activityId, true);
  if (!existing) {
    // A failed enqueue leaves the record queued: the worker's redelivery lands below and queues it.
    await queueSends(deps, caller, [queuedSend({ ...content, cc: [], bcc: [] }, template, composed, activityId)], 'keep-queued');
    return;
  }
  if (existing.current_status !== 'queued') return;
  // An earlier call wrote the record but may have died before its body was stored or its job queued.
  // Every job of this mail claims the same way (on the record), so the body is stored first.
  const now = deps.clock.now();
  const secret = await deps.tokenSecret();
  await putActivityBody(deps.db, activityId, encodeMailBody(deps, activityId, composed.payload, secret), ttlAfterDays(now, deps.config.ACTIVITY_RETENTION_DAYS));
  await deps.queue.send('send', await packStoredSendJob(deps, caller.project.id, activityId, composed.payload));
}

/** The failed activity (and `email.failed`) of a scheduled send whose template cannot be rendered. */
async function recordTemplateFailure(
  deps: Needs<'db' | 'clock' | 'config' | 'events'>,
  caller: ProjectCaller,
  content: ScheduledSendContent,
  template: Template | undefined,
  activityId: string,
  error: AppError,
): Promise<void> {
  const payload = { from_email: content.sender, to: [content.recipient], cc: [], bcc: [], subject: content.subject ?? template?.subject ?? '', html: '', attachments: [] };
  const send = queuedSend({ ...content, cc: [], bcc: [] }, template, { payload, variablesUsed: [], sampleCartItemsInjected: false }, activityId);
  await recordFailedSend(deps, caller, send, { error_code: 'template_error', error_message: error.message, permanent: true });
}

async function requireTemplate(deps: Needs<'db'>, projectId: string, templateId: string): Promise<Template> {
  const template = await findTemplate(deps.db, projectId, templateId);
  if (!template) throw notFound(TEMPLATE_SEND_MESSAGES.notFound(templateId));
  return template;
}

/** The request's content for one of its recipients. */
function mailContent(input: AdvancedSendInput, recipient: string): MailContent {
  return {
    recipient,
    sender: input.sender,
    senderName: input.senderName,
    subject: input.subject,
    html: input.html,
    text: input.text,
    data: input.data,
    emailType: input.emailType,
    cc: input.cc,
    bcc: input.bcc,
    attachments: input.attachments,
    customHeaders: input.customHeaders,
    inReplyTo: input.inReplyTo,
    references: input.references,
  };
}

function queuedSend(
  input: Pick<AdvancedSendInput, 'emailType' | 'environment' | 'campaignId' | 'automationRunId' | 'threadId' | 'source' | 'cc' | 'bcc'>,
  template: Template | undefined,
  composed: ComposedMail,
  activityId: string,
): QueuedSend {
  return {
    activityId,
    payload: composed.payload,
    emailType: input.emailType,
    environment: input.environment,
    recipientCount: 1 + input.cc.length + input.bcc.length,
    templateId: template?.id,
    campaignId: input.campaignId,
    automationRunId: input.automationRunId,
    threadId: input.threadId,
    source: input.source,
  };
}

/** Part 4.5 rules 5 and 6: the first recipient only; cc, bcc, attachments and senderName are dropped. */
function scheduledContent(input: AdvancedSendInput): ScheduledSendContent {
  return {
    recipient: input.recipients[0],
    sender: input.sender,
    subject: input.subject,
    html: input.html,
    templateId: input.templateId,
    data: input.data,
    emailType: input.emailType,
    campaignId: input.campaignId,
    automationRunId: input.automationRunId,
    text: input.text,
    customHeaders: input.customHeaders,
    inReplyTo: input.inReplyTo,
    references: input.references,
    threadId: input.threadId,
    environment: input.environment,
    source: input.source,
  };
}

/** What a scheduled send leaves out of the request, said in the answer rather than silently. */
function scheduledWarnings(input: AdvancedSendInput): string[] {
  const warnings: string[] = [];
  const others = input.recipients.length - 1;
  if (others > 0) warnings.push(`Only the first recipient is scheduled; ${others} other recipient${others === 1 ? ' was' : 's were'} ignored`);
  const dropped = [
    input.cc.length > 0 && 'cc',
    input.bcc.length > 0 && 'bcc',
    input.attachments.length > 0 && 'attachments',
    input.senderName !== undefined && 'senderName',
  ].filter((f): f is string => typeof f === 'string');
  if (dropped.length > 0) warnings.push(`${dropped.join(', ')} ${dropped.length === 1 ? 'is' : 'are'} not kept on scheduled sends`);
  return warnings;
}

async function scheduleSend(deps: AcceptDeps, caller: ProjectCaller, input: AdvancedSendInput, template: Template | undefined, schedule: ResolvedSchedule) {
  // Content that cannot be rendered now is refused now (400/422), not discovered at its time.
  composeMail(deps, {
    content: { ...mailContent(input, input.recipients[0]), cc: [], bcc: [], attachments: [] },
    template,
    activityId: randomUUID(),
    projectId: caller.project.id,
    secret: await deps.tokenSecret(),
  });
  const scheduled = await createScheduledSend(deps, caller, {
    content: { ...scheduledContent(input), templateId: template?.id ?? input.templateId },
    scheduledFor: schedule.instant,
    timezone: schedule.timezone,
  });
  const warnings = scheduledWarnings(input);
  return {
    success: true,
    scheduled: true,
    scheduled_send_id: scheduled.id,
    scheduled_for: schedule.instant.toISOString(),
    scheduled_for_local: schedule.local,
    timezone: schedule.timezone,
    message: `Email scheduled for ${schedule.local} (${schedule.timezone})`,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The preview of part 4.5: rendered as the first mail would be, with nothing written anywhere. */
async function dryRun(
  deps: Needs<'config' | 'tokenSecret'>,
  caller: ProjectCaller,
  input: AdvancedSendInput,
  template: Template | undefined,
  schedule: ResolvedSchedule | undefined,
  requestBaseUrl: string | undefined,
) {
  const content = schedule ? { ...mailContent(input, input.recipients[0]), cc: [], bcc: [], attachments: [], senderName: undefined } : mailContent(input, input.recipients[0]);
  const composed = composeMail(deps, {
    content,
    template,
    activityId: randomUUID(),
    projectId: caller.project.id,
    secret: await deps.tokenSecret(),
    requestBaseUrl,
    preview: true,
  });
  const { payload } = composed;
  return {
    success: true,
    dry_run: true,
    test_mode: caller.mode === 'test',
    sample_cart_items_injected: composed.sampleCartItemsInjected,
    would_send: {
      to: schedule ? [input.recipients[0]] : input.recipients,
      cc: payload.cc,
      bcc: payload.bcc,
      from: payload.from_name ? `${payload.from_name} <${payload.from_email}>` : payload.from_email,
      subject: payload.subject,
      html_preview: payload.html.slice(0, HTML_PREVIEW_LIMIT),
      // The text part given, rendered. The text delivery derives from HTML alone is not made here: its
      // converter would grow the API's bundle by a fifth (its cold start) for a preview.
      text_preview: payload.text === undefined ? null : payload.text.slice(0, HTML_PREVIEW_LIMIT),
      template_id: template?.id ?? null,
      variables_used: composed.variablesUsed,
    },
    ...(schedule ? { scheduled_for: schedule.instant.toISOString(), scheduled_for_local: schedule.local, timezone: schedule.timezone } : {}),
  };
}
