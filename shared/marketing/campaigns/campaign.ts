/**
 * A campaign (parts 2, 3 and 4.8) as stored: one small item per campaign, its engine cursor in an
 * item of its own, its counts in sharded counters (campaign-counters.ts). No item per recipient is
 * written before the engine releases that recipient (docs/campaigns.md).
 */
import type { AudienceFilter } from '../../audience/leads/audience-filter';

/** Part 3's campaign states. */
export type CampaignStatus = 'initializing' | 'pending' | 'processing' | 'rate_limited' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** States a campaign never leaves (cancel answers 409 `NOT_CANCELLABLE`). */
export const TERMINAL_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['completed', 'failed', 'cancelled'];

/** How long a warm send worker trusts a campaign's status it read: a cancel or pause reaches every worker within this. */
export const STATUS_KEEP_MS = 5_000;

/** States in which the engine may release recipients. */
export const RUNNING_CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['processing', 'rate_limited'];

/**
 * Who the campaign goes to, frozen at creation: the engine reads the audience lazily but only
 * takes leads (or memberships) created at or before `Campaign.frozen_at`, and skips leads deleted
 * before their turn.
 * - `ids`: the request's `recipientIds` (lead ids), stored as a blob in the payload bucket.
 * - `all`: every lead of the project (`selectAllRecipients` without a filter).
 * - `segment`: a static segment's members, or a dynamic segment's evaluation `generation` current at creation.
 * - `filter`: every lead matching `recipientFilter` (the audience filter language of dynamic segments).
 * - `follow_up`: the recipients of an earlier campaign not delivered, or not opened by a human.
 */
export type CampaignAudience =
  | { kind: 'ids'; count: number }
  | { kind: 'all' }
  | { kind: 'segment'; segment_id: string; dynamic?: boolean; generation?: number }
  | { kind: 'filter'; filter: AudienceFilter }
  | { kind: 'follow_up'; campaign_id: string; audience: 'not_delivered' | 'not_opened' };

/**
 * Why a running campaign paused itself (the reputation guard), was paused by the caller, or paused
 * with its project's marketing (`project_paused`: the project's resume resumes it).
 */
export interface CampaignPause {
  reason: 'manual' | 'bounce_rate' | 'complaint_rate' | 'project_paused';
  /** The measured rate and sample for the guard's reasons. */
  rate?: number;
  sample?: number;
  at: string;
}

export interface Campaign {
  id: string;
  project_id: string;
  /** Key mode of the creating key: test campaigns send like `sk_test_*` sends. */
  mode: 'live' | 'test';
  name: string;
  /** As given, or the template's subject. */
  subject: string;
  preview_text?: string;
  template_id: string;
  sender_profile_id: string;
  status: CampaignStatus;
  audience: CampaignAudience;
  /** Leads (memberships) created after this instant are not sent to. */
  frozen_at: string;
  /** The audience's size when it was frozen (counters, or the ids given); `recipientCount` is the caller's expectation. */
  total_recipients: number;
  recipient_count_expected?: number;
  select_all_recipients: boolean;
  batch_mode: boolean;
  batch_size?: number;
  batch_interval_hours: number;
  total_batches?: number;
  current_batch?: number;
  send_over_hours?: number;
  variable_config?: { defaults?: Record<string, unknown>; mappings?: Record<string, string> };
  utm_campaign: string;
  schedule_type: 'scheduled' | 'delay';
  created_at: string;
  updated_at: string;
  scheduled_for?: string;
  started_at?: string;
  completed_at?: string;
  next_batch_at?: string;
  pause?: CampaignPause;
  /** Engine fencing: each engine step moves `step` by one with a conditional write, so two steps never overlap. */
  step: number;
  /** Recipients released to the send pipeline so far (the cursor's position in the frozen audience). */
  released: number;
  /** True once the cursor has read the whole audience. */
  exhausted?: boolean;
  /** At completion, from the counters. */
  emails_sent?: number;
  emails_failed?: number;
  /** Last time the send worker saw SES throttle one of its mails (`rate_limited` until a clean window). */
  throttled_at?: string;
  /** Why the engine moved the campaign to `failed` (its sender profile or template is gone). */
  failure_reason?: string;
  /** Lowercased name and subject, for duplicate detection. */
  name_lc: string;
  subject_lc: string;
}
