import type { Activity } from '../activity/activity';
import type { ServiceEvent } from '../../platform/core/events';
import type { InboundReply } from './inbound-mail';

/**
 * email.inbound (part 6, "Inbound replies"): the envelope of the original send (`is_test`, and
 * `environment` only when the send set one) around the reply.
 *
 * `thread_id` is the original activity's id: a send through `/v1/send-email`, `/send-email` or
 * `/v1/send-batch` is one activity per recipient, so the thread a reply belongs to is that
 * activity, and every reply to it carries the same `thread_id`. An integration that groups
 * replies by thread may use either field; `thread_id` is there so that it need not know this.
 */
export function inboundEvent(activity: Activity, reply: InboundReply, receivedAt: string, now: string): ServiceEvent {
  const event: ServiceEvent = {
    event: 'email.inbound',
    timestamp: now,
    project_id: activity.project_id,
    is_test: activity.is_test,
    data: {
      activity_id: activity.id,
      thread_id: activity.id,
      event_type: 'inbound',
      event_timestamp: receivedAt,
      message_id: reply.messageId,
      in_reply_to: reply.inReplyTo,
      from: reply.from,
      to: reply.to,
      subject: reply.subject,
      text: reply.text,
      html: reply.html,
      attachments: reply.attachments,
      received_at: receivedAt,
    },
  };
  if (activity.environment) event.environment = activity.environment;
  return event;
}
