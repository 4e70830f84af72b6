import { createHash } from 'node:crypto';
import { decodeBody } from '../activity/activity-body';
import type { Activity } from '../activity/activity';
import { getActivity, getActivityWithBody } from '../activity/activity-repository';
import type { Needs } from '../../platform/core/dependencies';
import type { CampaignTally } from '../delivery/campaign-tally';
import { recordDeliveryEvent, type RecordOutcome } from '../delivery/record-event';
import type { DeliveryEvent } from '../delivery/ses-event';
import { logger } from '../../platform/core/logger';
import type { CounterBatch } from '../../identities/stats/domain-stats';
import { isMachineOpen } from './machine-open';
import { extractLinks } from './rewrite-html';
import { linkHash, verifyClickToken, verifyOpenToken } from './tracking-tokens';

/**
 * Opens and clicks seen by the service's own pixel and redirect, recorded like the provider's open
 * and click events (shared/mail-pipeline/delivery/record-event.ts): first-open and first-click times on the
 * activity, unique_opens / unique_clicks counted once per activity, the engagement timeline and the
 * email.open / email.click webhooks.
 */

/** Who loaded the pixel or followed the link. */
export interface Visitor {
  userAgent?: string;
  ipAddress?: string;
}

/** The visitor of a request: the user agent, and the first (client) address of X-Forwarded-For. */
export function visitorOf(headers: Readonly<Record<string, string | undefined>>): Visitor {
  const userAgent = headers['user-agent']?.trim() || undefined;
  const ipAddress = headers['x-forwarded-for']?.split(',')[0]?.trim() || undefined;
  return { userAgent, ipAddress };
}

/** The token of a pixel path segment (`<token>.gif`; the extension is optional). */
export function pixelToken(segment: string | undefined): string | undefined {
  return segment?.replace(/\.gif$/i, '');
}

export type OpenOutcome = RecordOutcome | 'invalid_token';

/** Records an open for a pixel token; an invalid token or an unknown activity records nothing. */
export async function recordOpen(deps: Needs<'config' | 'db' | 'clock' | 'events' | 'tokenSecret'>, token: string | undefined, visitor: Visitor, counters?: CounterBatch, campaigns?: CampaignTally): Promise<OpenOutcome> {
  const activityId = verifyOpenToken(token, await deps.tokenSecret());
  if (!activityId) return 'invalid_token';
  // Read strongly consistent, so that recording the open can start from it without a read of its own.
  const activity = await getActivity(deps.db, activityId, true);
  if (!activity) return 'unknown_activity';
  return recordDeliveryEvent(deps, engagementEvent(deps, 'open', activity, visitor), counters, undefined, campaigns, { activity });
}

export type ClickOutcome = { location: string; link: string; recorded: OpenOutcome | 'error' } | undefined;

/**
 * Follows a click token: the link at the token's index among the links of the mail's stored
 * (original) HTML, if its hash matches the token's. Anything else is undefined: the redirect only
 * ever leads to a link that was in that mail. A failure while recording the click is logged and
 * does not stop the redirect.
 */
export async function followClick(deps: Needs<'config' | 'db' | 'clock' | 'events' | 'tokenSecret'>, token: string | undefined, visitor: Visitor, counters?: CounterBatch, campaigns?: CampaignTally): Promise<ClickOutcome> {
  const claim = verifyClickToken(token, await deps.tokenSecret());
  if (!claim) return undefined;
  const { activity, body } = await getActivityWithBody(deps.db, claim.activityId, true);
  if (!activity || !body) return undefined;
  const link = extractLinks(decodeBody(body).html)[claim.index];
  if (link === undefined || linkHash(link) !== claim.linkHash) return undefined;
  let location: string;
  try {
    // Header-safe (percent-encoded, punycode host); extraction only keeps links that parse.
    location = new URL(link).href;
  } catch {
    return undefined;
  }
  let recorded: OpenOutcome | 'error';
  try {
    recorded = await recordDeliveryEvent(deps, engagementEvent(deps, 'click', activity, visitor, link), counters, undefined, campaigns, { activity });
  } catch (error) {
    logger.error('Recording a click failed', { activityId: activity.id, error: error as Error });
    recorded = 'error';
  }
  return { location, link, recorded };
}

function engagementEvent(deps: Needs<'clock'>, type: 'open' | 'click', activity: Activity, visitor: Visitor, link?: string): DeliveryEvent {
  const timestamp = deps.clock.now().toISOString();
  const material = [type, activity.id, timestamp, visitor.userAgent ?? '', visitor.ipAddress ?? '', ...(link === undefined ? [] : [link])].join('|');
  const details = { userAgent: visitor.userAgent, ipAddress: visitor.ipAddress };
  return {
    type,
    activityId: activity.id,
    projectId: activity.project_id,
    // Our own tracking knows the activity; the provider's message id may not be there yet (part 6).
    messageId: activity.message_id ?? '',
    timestamp,
    recipients: [activity.recipient_primary],
    ...(type === 'open' ? { open: { ...details, machine: isMachineOpen(visitor) } } : { click: { ...details, link: link as string } }),
    dedupeKey: createHash('sha256').update(material).digest('hex'),
  };
}
