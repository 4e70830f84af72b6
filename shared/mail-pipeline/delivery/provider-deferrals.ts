import type { Activity } from '../activity/activity';
import type { Needs } from '../../platform/core/dependencies';
import { domainOf } from '../../platform/mail/addresses';
import { addDeferrals } from './mailbox-provider-repository';
import { cachedProviderOf } from './mx-cache';
import type { DeliveryEvent } from './ses-event';

/**
 * Deferrals of campaign mail, counted against the recipient's mailbox provider (the engine slows a
 * provider whose deferrals burst: shared/marketing/campaigns/provider-pacing.ts). A deferral is an
 * SES DeliveryDelay event or a transient bounce (SES gave up retrying a soft failure).
 */

/** True for the events that tell a provider is deferring our mail. */
export function isDeferral(event: DeliveryEvent): boolean {
  return event.type === 'delivery_delay' || (event.type === 'bounce' && event.bounce?.bounceType === 'Transient');
}

/** The epoch second that starts the minute of `at` (the provider counters' and budgets' window). */
export const minuteOf = (at: Date): number => Math.floor(at.getTime() / 60_000) * 60;

/**
 * Counts a campaign mail's deferral against its recipient's provider, in the minute it arrived: one
 * ADD on a random shard. Mail to `other` domains is not counted (it has no pace of its own to slow).
 * Called once per applied event (a duplicate event was turned away before), after its record write.
 */
export async function countDeferral(deps: Needs<'db' | 'clock'>, activity: Pick<Activity, 'campaign_id' | 'recipient_primary'>, event: DeliveryEvent): Promise<void> {
  if (!activity.campaign_id || !isDeferral(event)) return;
  const provider = await cachedProviderOf(deps, domainOf(activity.recipient_primary));
  if (provider === 'other') return;
  await addDeferrals(deps.db, provider, minuteOf(deps.clock.now()));
}
