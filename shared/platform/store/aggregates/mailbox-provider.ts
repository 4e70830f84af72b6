import { days, defineAggregate, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { allShards } from './shards';

/** Key of a recipient domain's cached MX lookup (its mailbox provider), kept about a day (TTL). */
export const mxCacheKey = (domain: string): ItemKey => ({ pk: `MX#${domain.toLowerCase()}`, sk: 'MX' });

/** Key of the mails campaigns took from every mailbox provider's budget in one minute (its first epoch second): one attribute per provider. */
export const providerRateKey = (minute: number): ItemKey => ({ pk: 'PRATE', sk: `MIN#${minute}` });

/** Key of a mailbox provider's backoff state (its pace halved after deferral bursts). */
export const providerPaceKey = (provider: string): ItemKey => ({ pk: 'PRATE', sk: `PACE#${provider}` });

/**
 * Shards of a provider's deferral counter: a burst of deferrals (SES DeliveryDelay events, transient
 * bounces) from one provider may reach hundreds a second, each one ADD on a shard chosen at random.
 */
export const PROVIDER_DEFERRAL_SHARDS = 4;

/** Key of one shard of a provider's deferrals counted in one minute (its first epoch second). */
export const providerDeferralKey = (provider: string, minute: number, shard: number): ItemKey => ({ pk: `PDEFER#${provider}#${shard}`, sk: `MIN#${minute}` });

/** Keys of every shard of a provider's deferrals in one minute (BatchGet and sum). */
export const providerDeferralKeys = (provider: string, minute: number): ItemKey[] => allShards(PROVIDER_DEFERRAL_SHARDS).map((s) => providerDeferralKey(provider, minute, s));

/** Object key of recipients a campaign step parked because their provider had no budget yet (one object per page read). */
export const parkedRecipientsObjectKey = (projectId: string, campaignId: string, parkId: string): string => `campaigns/${projectId}/${campaignId}/parked/${parkId}.json`;

/**
 * Pacing per mailbox provider (docs/campaigns.md): the MX cache of recipient domains, each
 * provider's per-minute budget and backoff state, and its deferral counters, deployment-wide.
 */
export const mailboxProvider = /* @__PURE__ */ defineAggregate({
  name: 'mailbox provider',
  keys: { mxCacheKey, providerRateKey, providerPaceKey, PROVIDER_DEFERRAL_SHARDS, providerDeferralKey, providerDeferralKeys, parkedRecipientsObjectKey },
  ttl: [
    { attribute: 'ttl', items: 'MX cache entries', seconds: /* @__PURE__ */ days(1) },
    { attribute: 'ttl', items: 'provider minutes and deferral counters', seconds: 3600 },
  ],
});

/** The access-pattern rows of this file's aggregate (docs/access-patterns.md). */
export const mailboxProviderAccessPatterns: Record<string, readonly AccessPattern[]> = {
  mailboxProvider: [
    { pattern: 'MX cache of a recipient domain', pk: 'MX#<domain>', sk: 'MX', operation: 'BatchGet per page of new domains (after the in-memory cache), Put after a DNS lookup', wcu: '1 per domain a day (TTL 24 h)' },
    { pattern: 'Provider budgets (deployment-wide)', pk: 'PRATE', sk: 'MIN#<second>', operation: 'one conditional ADD per engine page for every provider in it (mails taken in that minute, an attribute each); a read and one more try when one does not fit', wcu: '1 per page of recipients of limited providers (TTL 1 h)' },
    { pattern: 'Provider backoff state', pk: 'PRATE', sk: 'PACE#<provider>', operation: 'BatchGet once a minute per engine container, conditional Put after a deferral burst', wcu: '1 per minute of deferral burst' },
    { pattern: 'Provider deferrals', pk: 'PDEFER#<provider>#<shard>', sk: 'MIN#<second>', operation: 'ADD per DeliveryDelay or transient bounce of a campaign mail, random shard of 4', wcu: '1 per deferral (TTL 1 h)' },
    { pattern: 'Parked recipients', pk: '(blob store, not the table)', sk: 'campaigns/<p>/<c>/parked/<id>.json', operation: 'S3 Put per page with parked recipients, Get when released', wcu: '0' },
  ],
};
