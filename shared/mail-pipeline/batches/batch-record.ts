import type { Activity, ActivityStatus } from '../activity/activity';
import type { Batch, BatchRecipient } from './batch';

/**
 * Subjects longer than this (UTF-8 bytes) are not copied into each recipient's record: a campaign
 * mail's record is about 910 bytes through `delivered` without its subject, and a 998-character
 * subject (the longest the API takes) would make every update cost 2 to 4 write units. Shorter
 * ones (most: 40 to 80 characters) stay, so the usual read needs no look at the batch.
 */
export const LONG_SUBJECT_BYTES = 100;

/** The record the fan-out stores: the recipient's activity without a long subject (its batch has it). */
export function storedRecipientActivity(activity: Activity): Activity {
  if (activity.subject === undefined || Buffer.byteLength(activity.subject) <= LONG_SUBJECT_BYTES) return activity;
  const { subject: _kept, ...rest } = activity;
  return rest;
}

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
