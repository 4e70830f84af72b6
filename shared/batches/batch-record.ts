import type { Activity, ActivityStatus } from '../activity/activity';
import type { Batch, BatchRecipient } from './batch';

/** The activity record of one batch recipient: written by the fan-out, or derived until it has been. */
export function batchRecipientActivity(
  batch: Batch,
  recipient: BatchRecipient,
  id: string,
  status: ActivityStatus,
  times: { created_at: string; updated_at: string },
  suppressionReason?: string,
): Activity {
  return {
    id,
    project_id: batch.project_id,
    ...times,
    email_type: batch.email_type,
    template_id: batch.template_id,
    batch_id: batch.id,
    campaign_id: batch.campaign_id,
    metadata: recipient.metadata,
    subject: batch.subject,
    sender_email: batch.sender_email,
    sender_name: batch.sender_name,
    recipient_primary: recipient.email,
    recipient_count: 1,
    current_status: status,
    is_test: batch.mode === 'test',
    environment: batch.environment,
    suppression_reason: suppressionReason,
  };
}
