import type { Campaign } from './campaign';
import type { CampaignCounts } from './campaign-gateway';

const iso = (value: string | undefined): string | null => value ?? null;

/**
 * The full campaign row (part 2's Campaign fields, ISO times or null), as `POST /v1/campaigns`
 * answers it; `emails_sent` and `emails_failed` come from the counters when they were read.
 */
export function presentCampaign(campaign: Campaign, counts?: Pick<CampaignCounts, 'sent' | 'failed'>) {
  return {
    id: campaign.id,
    name: campaign.name,
    subject: campaign.subject,
    preview_text: campaign.preview_text ?? null,
    status: campaign.status,
    template_id: campaign.template_id,
    sender_profile_id: campaign.sender_profile_id,
    total_recipients: campaign.total_recipients,
    recipient_count_expected: campaign.recipient_count_expected ?? null,
    emails_sent: counts?.sent ?? 0,
    emails_failed: counts?.failed ?? 0,
    batch_mode: campaign.batch_mode,
    batch_size: campaign.batch_size ?? null,
    batch_interval_hours: campaign.batch_interval_hours,
    total_batches: campaign.total_batches ?? null,
    current_batch: campaign.current_batch ?? null,
    created_at: campaign.created_at,
    scheduled_for: iso(campaign.scheduled_for),
    started_at: iso(campaign.started_at),
    completed_at: iso(campaign.completed_at),
    next_batch_at: iso(campaign.next_batch_at),
    select_all_recipients: campaign.select_all_recipients,
    send_over_hours: campaign.send_over_hours ?? null,
    variable_config: campaign.variable_config ?? null,
    utm_campaign: campaign.utm_campaign,
    schedule_type: campaign.schedule_type,
    audience: campaign.audience,
    pause: campaign.pause ?? null,
  };
}

/** The summary of 4.8's lists and GET: the counts come from the campaign's counters. */
export function presentCampaignSummary(campaign: Campaign, counts: Pick<CampaignCounts, 'sent' | 'failed'> | undefined) {
  return {
    id: campaign.id,
    name: campaign.name,
    subject: campaign.subject,
    status: campaign.status,
    created_at: campaign.created_at,
    scheduled_for: iso(campaign.scheduled_for),
    started_at: iso(campaign.started_at),
    completed_at: iso(campaign.completed_at),
    total_recipients: campaign.total_recipients,
    emails_sent: counts?.sent ?? 0,
    emails_failed: counts?.failed ?? 0,
  };
}

/** 4.8's metrics: `opened` counts human opens only (machine opens apart); `bounced` counts hard bounces. */
export function presentMetrics(counts: CampaignCounts) {
  return { sent: counts.sent, delivered: counts.delivered, opened: counts.opened, clicked: counts.clicked, bounced: counts.hard_bounced, complained: counts.complained };
}
