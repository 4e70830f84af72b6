import type { Activity, ActivityStatus } from '../activity/activity';
import type { KeyMode } from '../../platform/security/api-keys';
import type { ScheduledSendContent } from '../mail/advanced-send-types';

/**
 * What is stored. `sent` is never stored: a send that left is `processing` with an `email_id`, and
 * its outcome is read from that activity (no extra write per send).
 */
export type StoredScheduledStatus = 'pending' | 'processing' | 'cancelled' | 'failed';

/** What the API shows (part 2): the stored status, with `processing` refined by the activity. */
export type ScheduledSendStatus = 'pending' | 'processing' | 'sent' | 'failed' | 'cancelled';

/** A scheduled send as stored (part 2 fields plus what the firing needs). */
export interface ScheduledSend {
  id: string;
  project_id: string;
  /** Mode of the key that scheduled it; the send goes out in the same mode. */
  mode: KeyMode;
  status: StoredScheduledStatus;
  /** ISO 8601 UTC. */
  scheduled_for: string;
  /** IANA zone, or an offset label such as `UTC+9` when the time came with an offset. */
  timezone: string;
  recipient_email: string;
  sender_email: string;
  /** Absent with a template that gives the subject. */
  subject?: string;
  content: ScheduledSendContent;
  /** Id of the activity the send creates when it fires; chosen at creation. */
  email_id: string;
  created_at: string;
  updated_at: string;
  version: number;
  /** Why it failed before an activity existed (deleted template, disabled project...). */
  error?: string;
  /** Id of the queue message that claimed it: only that message's redeliveries may finish the send. */
  claimed_by?: string;
}

/** Maps an activity status to the scheduled send's: in flight, left, or did not leave. */
const FROM_ACTIVITY: Readonly<Record<ActivityStatus, ScheduledSendStatus>> = {
  queued: 'processing',
  retrying: 'processing',
  sent: 'sent',
  delivered: 'sent',
  bounced: 'sent',
  complained: 'sent',
  failed: 'failed',
  suppressed: 'failed',
  cancelled: 'failed',
};

/**
 * The status the API shows. A stored `processing` is refined by its activity; with no activity yet
 * (the worker claimed it a moment ago) it stays `processing`.
 */
export function deriveScheduledStatus(stored: StoredScheduledStatus, activity?: Pick<Activity, 'current_status'>): ScheduledSendStatus {
  if (stored !== 'processing' || !activity) return stored;
  return FROM_ACTIVITY[activity.current_status] ?? 'processing';
}

/** The scheduled send resource (part 2) plus our `email_id` (null until it fires) and `error` (when failed before sending). */
export function presentScheduledSend(send: ScheduledSend, status: ScheduledSendStatus) {
  return {
    id: send.id,
    status,
    scheduled_for: send.scheduled_for,
    timezone: send.timezone,
    recipient_email: send.recipient_email,
    sender_email: send.sender_email,
    subject: send.subject ?? null,
    created_at: send.created_at,
    updated_at: send.updated_at,
    email_id: send.status === 'processing' ? send.email_id : null,
    ...(send.error !== undefined ? { error: send.error } : {}),
  };
}

/** The API form of a scheduled send. */
export type ScheduledSendResource = ReturnType<typeof presentScheduledSend>;
