import type { Activity, ActivityFailure } from '../activity/activity';
import type { Project } from '../projects/project';
import type { SuppressionEntry } from '../suppression/suppression-repository';
import type { ServiceEvent } from './events';

/**
 * Builders of the outbound events of part 6. Publishing is skipped for projects with no webhook URL
 * at all: an event nobody can receive costs a queue request and nothing else.
 */

/** True when the project has somewhere to deliver events. */
export function hasWebhookTargets(project: Project): boolean {
  return Boolean(
    project.webhook_url ||
      project.webhook_url_dev ||
      project.inbound_webhook_url ||
      project.inbound_webhook_url_dev ||
      Object.keys(project.inbound_webhook_environments ?? {}).length > 0,
  );
}

/** API sends (not campaigns or automations) are the ones that emit email.suppressed and email.failed. */
export function isApiSend(activity: Activity): boolean {
  return !activity.campaign_id && !activity.automation_run_id;
}

/** The shared envelope of email events: `is_test`, and `environment` only when the send set one. */
function envelope(name: string, activity: Activity, now: string, data: Record<string, unknown>): ServiceEvent {
  const event: ServiceEvent = { event: name, timestamp: now, project_id: activity.project_id, is_test: activity.is_test, data };
  if (activity.environment) event.environment = activity.environment;
  return event;
}

/** email.send, email.delivery, email.bounce, email.complaint, email.reject, email.deliverydelay, email.open, email.click. */
export function emailEvent(
  kind: 'send' | 'delivery' | 'bounce' | 'complaint' | 'reject' | 'deliverydelay' | 'open' | 'click',
  activity: Activity,
  input: { now: string; eventTimestamp: string; recipient?: string; messageId?: string | null; extra?: Record<string, unknown> },
): ServiceEvent {
  const data: Record<string, unknown> = {
    activity_id: activity.id,
    recipient: input.recipient ?? activity.recipient_primary,
    event_type: kind,
    event_timestamp: input.eventTimestamp,
    ...input.extra,
  };
  const messageId = input.messageId === undefined ? activity.message_id : input.messageId;
  if (messageId) data.message_id = messageId;
  return envelope(`email.${kind}`, activity, input.now, data);
}

/** email.failed: once per API send, on its final failure; `message_id` is always null. */
export function failedEvent(activity: Activity, failure: ActivityFailure, now: string): ServiceEvent {
  return envelope('email.failed', activity, now, {
    activity_id: activity.id,
    message_id: null,
    recipient: activity.recipient_primary,
    event_type: 'failed',
    event_timestamp: now,
    error_code: failure.error_code,
    error_message: failure.error_message,
    permanent: failure.permanent,
  });
}

/** email.suppressed: no `is_test`, no `environment`, no `message_id` (part 6). */
export function suppressedEvent(activity: Activity, entry: SuppressionEntry, now: string): ServiceEvent {
  return {
    event: 'email.suppressed',
    timestamp: now,
    project_id: activity.project_id,
    data: {
      email: entry.email,
      activity_id: activity.id,
      email_type: activity.email_type,
      suppressed_at: now,
      suppression_reason: entry.reason,
      suppression_source: entry.source,
      suppression_description: entry.description ?? null,
    },
  };
}

/** suppression.added: the entry's fields; a complaint carries its feedback type instead of the bounce fields. */
export function suppressionAddedEvent(entry: SuppressionEntry, now: string): ServiceEvent {
  const data: Record<string, unknown> = {
    email: entry.email,
    reason: entry.reason,
    source: entry.source,
    description: entry.description ?? null,
    suppressed_at: entry.suppressed_at,
  };
  if (entry.reason === 'complaint') data.complaint_feedback_type = entry.complaint_feedback_type ?? null;
  else Object.assign(data, { bounce_type: entry.bounce_type ?? null, bounce_subtype: entry.bounce_subtype ?? null });
  return { event: 'suppression.added', timestamp: now, project_id: entry.project_id, data };
}

/** suppression.removed. */
export function suppressionRemovedEvent(projectId: string, email: string, removedAt: string, removedBy: string): ServiceEvent {
  return { event: 'suppression.removed', timestamp: removedAt, project_id: projectId, data: { email, removed_at: removedAt, removed_by: removedBy } };
}
