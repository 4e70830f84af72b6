import type { Activity } from './activity';
import { batchOfActivity } from './batch-activity-ids';
import { fullTimeline } from './timeline';

/** The activity record as part 2 shows it: every documented field present, null where unknown. */
export function presentActivity(
  activity: Activity,
  options: { html?: string | null; events?: boolean; text?: string | null; headers?: readonly { name: string; value: string }[] | null } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: activity.id,
    created_at: activity.created_at,
    email_type: activity.email_type,
    campaign_id: activity.campaign_id ?? null,
    automation_run_id: activity.automation_run_id ?? null,
    template_id: activity.template_id ?? null,
    message_id: activity.message_id ?? null,
    subject: activity.subject,
    sender_email: activity.sender_email,
    sender_name: activity.sender_name ?? null,
    recipient_primary: activity.recipient_primary,
    current_status: activity.current_status,
    is_test: activity.is_test,
    environment: activity.environment ?? null,
    sent_at: activity.sent_at ?? null,
    delivered_at: activity.delivered_at ?? null,
    bounced_at: activity.bounced_at ?? null,
    complained_at: activity.complained_at ?? null,
    opened_first_at: activity.opened_first_at ?? null,
    clicked_first_at: activity.clicked_first_at ?? null,
    error_code: activity.failure?.error_code ?? null,
    error_message: activity.failure?.error_message ?? null,
  };
  if (activity.suppression_reason) out.suppression_reason = activity.suppression_reason;
  if (activity.thread_id) out.thread_id = activity.thread_id;
  if (activity.source) out.source = activity.source;
  // A batch mail's record does not store its batch: its id names it (batch-activity-ids.ts).
  const batchId = activity.batch_id ?? batchOfActivity(activity.id)?.batchId;
  if (batchId) out.batch_id = batchId;
  if (activity.metadata) out.metadata = activity.metadata;
  if (options.html !== undefined) out.html_content = options.html;
  if (options.text !== undefined) out.text_content = options.text;
  if (options.headers !== undefined) out.headers = options.headers;
  if (options.events) {
    out.events = fullTimeline(activity)
      .sort((a, b) => Date.parse(a.event_timestamp) - Date.parse(b.event_timestamp))
      .map((e) => ({
        id: e.id,
        event_type: e.event_type,
        event_timestamp: e.event_timestamp,
        user_agent: e.user_agent ?? null,
        ip_address: e.ip_address ?? null,
        url_clicked: e.url_clicked ?? null,
        bounce_type: e.bounce_type ?? null,
        bounce_subtype: e.bounce_subtype ?? null,
        complaint_feedback_type: e.complaint_feedback_type ?? null,
        created_at: e.created_at,
      }));
  }
  return out;
}
