import { MIN_RATE_SAMPLE, SES_THRESHOLDS } from '../../identities/stats/ses-thresholds';
import type { Needs } from '../../platform/core/dependencies';
import type { ServiceEvent } from '../../platform/core/events';
import { getProjectCached } from '../../platform/projects/project-repository';
import type { Campaign, CampaignPause } from './campaign';
import type { CampaignCounts } from './campaign-gateway';

/**
 * The reputation guard (docs/campaigns.md): SES reviews an account from a 5% bounce rate and a
 * 0.1% complaint rate; a campaign pauses itself above these, once its sample is large enough for
 * the rate to mean something.
 */
export const GUARD_MIN_SAMPLE = MIN_RATE_SAMPLE;
export const MAX_HARD_BOUNCE_RATE = SES_THRESHOLDS.bounce.review;
export const MAX_COMPLAINT_RATE = SES_THRESHOLDS.complaint.review;

/** Why the campaign must pause now, or undefined while it is within bounds (or its sample is too small). */
export function reputationVerdict(counts: Pick<CampaignCounts, 'delivered' | 'hard_bounced' | 'complained'>): Omit<CampaignPause, 'at'> | undefined {
  const sample = counts.delivered + counts.hard_bounced;
  if (sample < GUARD_MIN_SAMPLE) return undefined;
  const bounceRate = counts.hard_bounced / sample;
  if (bounceRate > MAX_HARD_BOUNCE_RATE) return { reason: 'bounce_rate', rate: bounceRate, sample };
  const complaintRate = counts.delivered > 0 ? counts.complained / counts.delivered : 0;
  if (complaintRate > MAX_COMPLAINT_RATE) return { reason: 'complaint_rate', rate: complaintRate, sample: counts.delivered };
  return undefined;
}

/**
 * The engine's verdict before each step: the campaign's own guard first, then its project's
 * reputation watch (shared/identities/reputation): a live campaign of a project whose marketing is
 * paused pauses too (`project_paused`, with the project's measured rate), and the project's resume
 * resumes it. Test campaigns send nothing through SES, so only their own guard holds them.
 */
export async function campaignVerdict(
  deps: Needs<'db' | 'clock'>,
  campaign: Pick<Campaign, 'project_id' | 'mode'>,
  counts: Pick<CampaignCounts, 'delivered' | 'hard_bounced' | 'complained'>,
): Promise<Omit<CampaignPause, 'at'> | undefined> {
  const own = reputationVerdict(counts);
  if (own || campaign.mode === 'test') return own;
  const pause = (await getProjectCached(deps.db, deps.clock, campaign.project_id))?.marketing_pause;
  return pause ? { reason: 'project_paused', rate: pause.rate, sample: pause.sample } : undefined;
}

/** The `campaign.paused` webhook event (an extension of part 6): which campaign, why, and the measured rate. */
export function pausedEvent(campaign: Campaign, pause: CampaignPause): ServiceEvent {
  return {
    event: 'campaign.paused',
    timestamp: pause.at,
    project_id: campaign.project_id,
    is_test: campaign.mode === 'test',
    data: { campaign_id: campaign.id, name: campaign.name, reason: pause.reason, rate: pause.rate, sample: pause.sample, paused_at: pause.at },
  };
}
