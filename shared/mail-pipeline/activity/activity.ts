/** The activity record (part 2) as stored: absent optional fields are simply not written. */

export type ActivityStatus = 'queued' | 'retrying' | 'sent' | 'delivered' | 'bounced' | 'complained' | 'failed' | 'suppressed' | 'cancelled';

/** Statuses from which the send worker may still hand the mail to SES. */
export const SENDABLE_STATUSES: readonly ActivityStatus[] = ['queued', 'retrying'];

/** Stable `error_code` values of `email.failed` (part 6). */
export type FailureCode =
  | 'sender_not_verified'
  | 'rejected'
  | 'rate_limit_exhausted'
  | 'attachment_error'
  | 'sender_domain_unauthenticated'
  | 'quota_exceeded'
  /** The template does not compile or its render exceeds the bounds (a scheduled send at its time). */
  | 'template_error'
  | 'send_failed';

export interface ActivityFailure {
  error_code: FailureCode;
  error_message: string;
  /** True when resending the same email would fail again. */
  permanent: boolean;
}

/** One entry of the activity timeline; kept inside the record, so appending costs no extra write. */
export interface TimelineEvent {
  id: string;
  event_type: string;
  event_timestamp: string;
  created_at: string;
  bounce_type?: string;
  bounce_subtype?: string;
  complaint_feedback_type?: string;
  user_agent?: string;
  ip_address?: string;
  url_clicked?: string;
}

export interface Activity {
  id: string;
  project_id: string;
  created_at: string;
  updated_at: string;
  email_type: string;
  campaign_id?: string;
  automation_run_id?: string;
  /** Internal (never shown): `<automation_id>/<step_id>` of an automation's mail, whose counters its delivery events add to. */
  automation_step?: string;
  template_id?: string;
  /** The caller's conversation id (`thread_id` of the advanced send). */
  thread_id?: string;
  /** The batch send the mail belongs to (part 4.3). */
  batch_id?: string;
  /** The batch recipient's `metadata`, echoed as given. */
  metadata?: Record<string, unknown>;
  /** Where the request came from (`x-source` of the advanced send). */
  source?: string;
  message_id?: string;
  /**
   * Absent on a batch or campaign mail whose subject is longer than LONG_SUBJECT_BYTES: its batch
   * holds it once (shared/mail-pipeline/batches/batch-record.ts), and readers fill it in from there.
   */
  subject?: string;
  sender_email: string;
  sender_name?: string;
  recipient_primary: string;
  /** To, Cc and Bcc addresses together; absent means 1 (not shown by the API). */
  recipient_count?: number;
  current_status: ActivityStatus;
  is_test: boolean;
  environment?: string;
  sent_at?: string;
  delivered_at?: string;
  bounced_at?: string;
  complained_at?: string;
  opened_first_at?: string;
  /** First open by a person: machine opens (Apple Mail Privacy Protection, scanners) leave it unset (shared/mail-pipeline/tracking/machine-open.ts). */
  human_opened_at?: string;
  /** First open by a machine. */
  machine_opened_at?: string;
  clicked_first_at?: string;
  failure?: ActivityFailure;
  suppression_reason?: string;
  timeline?: TimelineEvent[];
  /** Bumped on every write after the first; delivery events write conditionally on it. */
  version?: number;
}
