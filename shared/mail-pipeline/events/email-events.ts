import type { Activity, ActivityFailure } from '../activity/activity';
import type { Project } from '../../platform/projects/project';
import type { ServiceEvent } from '../../platform/core/events';

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

/** The kinds of the shared outbound payload (part 6): each is published as `email.<kind>`. */
export const EMAIL_EVENT_KINDS = ['send', 'delivery', 'bounce', 'complaint', 'reject', 'deliverydelay', 'open', 'click'] as const;

/** One of EMAIL_EVENT_KINDS. */
export type EmailEventKind = (typeof EMAIL_EVENT_KINDS)[number];

/** email.send, email.delivery, email.bounce, email.complaint, email.reject, email.deliverydelay, email.open, email.click. */
export function emailEvent(
  kind: EmailEventKind,
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
