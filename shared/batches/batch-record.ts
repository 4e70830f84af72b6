import type { Activity, ActivityStatus } from '../activity/activity';
import type { Batch, BatchRecipient } from './batch';

/**
 * The activity record of one batch recipient: written by the fan-out, or derived until it has been.
 * No `batch_id` (the id names the batch, the presenter shows it) and no `recipient_count` (always 1,
 * the presenter does not show it): every byte counts against the record's 1 KB write unit.
 */
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
    campaign_id: batch.campaign_id,
    metadata: recipient.metadata,
    subject: batch.subject,
    sender_email: batch.sender_email,
    sender_name: batch.sender_name,
    recipient_primary: recipient.email,
    current_status: status,
    is_test: batch.mode === 'test',
    environment: batch.environment,
    suppression_reason: suppressionReason,
  };
}
