import { defineAggregate, defineLifecycle, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { shardOf } from './shards';

/** Shards of the deployment-wide re-check partition (a domain always lands on the same one). */
export const DOMAIN_CHECK_SHARDS = 4;
/** Prefix of a project's sending-domain items (Query with begins_with). */
export const DOMAIN_SK_PREFIX = 'DOMAIN#';
/** gsi2 partition that lists every domain for the DNS sweep. */
export const DOMAIN_SWEEP_PARTITION = 'DOMAINS';

/** Key of a sending domain inside its project's partition. */
export const domainKey = (projectId: string, name: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `DOMAIN#${name.toLowerCase()}` });

/** Key of the item that ties a domain name to the one project that owns it. */
export const domainClaimKey = (name: string): ItemKey => ({ pk: `DOMAINCLAIM#${name.toLowerCase()}`, sk: 'DOMAINCLAIM' });

/** Key of the lookup from a public verification-page token to its domain. */
export const verificationPageKey = (token: string): ItemKey => ({ pk: `VERIFYPAGE#${token}`, sk: 'VERIFYPAGE' });

/** gsi1 partitions of the domains due for a re-check, one per shard. */
export const domainCheckPartitions = (): string[] => Array.from({ length: DOMAIN_CHECK_SHARDS }, (_, s) => `DOMAINCHECK#${s}`);

/** gsi1 attributes of a domain due for a re-check at `dueAt` (ISO); removed once it is final. */
export const domainCheckIndex = (dueAt: string, projectId: string, name: string) => ({
  gsi1pk: `DOMAINCHECK#${shardOf(name.toLowerCase(), DOMAIN_CHECK_SHARDS)}`,
  gsi1sk: `${dueAt}#${projectId}#${name.toLowerCase()}`,
});

/** gsi4 attributes of a domain in its project's list, newest first (keys only; the list reads the page's items by key). */
export const domainListIndex = (projectId: string, createdAt: string, name: string) => ({ gsi4pk: `DOMAINLIST#${projectId}`, gsi4sk: `${createdAt}#${name.toLowerCase()}` });

/** The gsi4 partition of a project's domains. */
export const domainListPartition = (projectId: string) => ({ index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: `DOMAINLIST#${projectId}` });

/** Key of the marker saying every domain of a project has its list entry (domains registered before the list existed get theirs once). */
export const domainsIndexedKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'DOMAINSINDEXED' });

/** Reads the domain name back from a domain's sort key. */
export const domainOfSortKey = (sk: string): string => sk.slice(DOMAIN_SK_PREFIX.length);

/** gsi2 attributes that list every domain for the DNS sweep. */
export const domainSweepIndex = (projectId: string, name: string) => ({ gsi2pk: DOMAIN_SWEEP_PARTITION, gsi2sk: `${name.toLowerCase()}#${projectId}` });

/**
 * A sending domain of a project, with the claim that ties a verified name to its one project, its
 * public verification page and the project's "every domain is listed" marker. Written whole under
 * its `version` (versionedPut); domain items carry their DNS records (about 2 KB, 2 to 3 WCU a write).
 */
export const domain = /* @__PURE__ */ defineAggregate({
  name: 'sending domain',
  keys: { domainKey, DOMAIN_SK_PREFIX, domainClaimKey, verificationPageKey, DOMAIN_CHECK_SHARDS, domainCheckPartitions, domainCheckIndex, domainListIndex, domainListPartition, domainsIndexedKey, domainOfSortKey, DOMAIN_SWEEP_PARTITION, domainSweepIndex },
  indexes: ['gsi1', 'gsi2', 'gsi4'],
});

/** gsi1 partition of the magic-link senders waiting for their owners. */
export const SENDER_CHECK_PARTITION = 'SENDERCHECK';

/** Key of a sender profile (one per address) inside its project's partition. */
export const senderKey = (projectId: string, email: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `SENDER#${email.toLowerCase()}` });

/** Prefix of a project's sender items. */
export const SENDER_SK_PREFIX = 'SENDER#';

/** Key of the lookup from a project's own sender-confirmation link token to its sender. */
export const senderConfirmationKey = (token: string): ItemKey => ({ pk: `SENDERCONFIRM#${token}`, sk: 'SENDERCONFIRM' });

/** gsi1 attributes of a magic-link sender waiting for its owner to confirm. */
export const senderCheckIndex = (dueAt: string, projectId: string, email: string) => ({ gsi1pk: SENDER_CHECK_PARTITION, gsi1sk: `${dueAt}#${projectId}#${email.toLowerCase()}` });

/** A sender profile (one per address) of a project and its confirmation link; written whole under its `version`. */
export const sender = /* @__PURE__ */ defineAggregate({
  name: 'sender profile',
  keys: { senderKey, SENDER_SK_PREFIX, senderConfirmationKey, SENDER_CHECK_PARTITION, senderCheckIndex },
  indexes: ['gsi1'],
});

/** gsi1 partition of the tracking domains whose HTTPS (edge tenant and certificate) is not active yet. */
export const TRACKING_TLS_PARTITION = 'TRACKTLS';

/** Key of a reply domain inside its project's partition. */
export const replyDomainKey = (projectId: string, name: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `REPLYDOMAIN#${name.toLowerCase()}` });

/** Prefix of a project's reply-domain items. */
export const REPLY_DOMAIN_SK_PREFIX = 'REPLYDOMAIN#';

/** A reply domain of a project (inbound mail). */
export const replyDomain = /* @__PURE__ */ defineAggregate({
  name: 'reply domain',
  keys: { replyDomainKey, REPLY_DOMAIN_SK_PREFIX },
});

/** Key of a tracking domain inside its project's partition. */
export const trackingDomainKey = (projectId: string, name: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TRACKDOMAIN#${name.toLowerCase()}` });

/** Prefix of a project's tracking-domain items. */
export const TRACKING_DOMAIN_SK_PREFIX = 'TRACKDOMAIN#';

/** gsi1 attributes of a tracking domain whose HTTPS is due for a check at `dueAt` (ISO). */
export const trackingTlsIndex = (dueAt: string, projectId: string, parentDomain: string) => ({ gsi1pk: TRACKING_TLS_PARTITION, gsi1sk: `${dueAt}#${projectId}#${parentDomain.toLowerCase()}` });

/**
 * A tracking domain's HTTPS moves, written only while its CNAME is verified (a DNS sweep writing its
 * records meanwhile keeps them): in the TLS index while the certificate is not active, out of it once it is.
 */
export const trackingDomainLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'tracking domain',
  transitions: {
    recordTls: { from: ['verified'], to: 'verified', set: ['tls', 'gsi1pk', 'gsi1sk'] },
    settleTls: { from: ['verified'], to: 'verified', set: ['tls'], remove: ['gsi1pk', 'gsi1sk'] },
  },
});

/** A tracking domain of a project, in the TLS index while its HTTPS is not active. */
export const trackingDomain = /* @__PURE__ */ defineAggregate({
  name: 'tracking domain',
  keys: { trackingDomainKey, TRACKING_DOMAIN_SK_PREFIX, TRACKING_TLS_PARTITION, trackingTlsIndex },
  indexes: ['gsi1'],
  lifecycle: trackingDomainLifecycle,
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const identitiesAccessPatterns: Record<string, readonly AccessPattern[]> = {
  domain: [
    { pattern: 'Sending domain of a project', pk: 'PROJECT#<projectId>', sk: 'DOMAIN#<domain>', operation: 'GetItem per send', wcu: '0 (1 to register)' },
    { pattern: 'Sending domains of a project', pk: 'PROJECT#<projectId>', sk: 'DOMAIN#', operation: 'Query begins_with', wcu: '0' },
    { pattern: 'Domains of a project, newest first (gsi4, keys only)', pk: 'gsi4pk DOMAINLIST#<p>', sk: 'gsi4sk <created>#<domain>', operation: 'Query desc, paged; BatchGet the page', wcu: '1 index entry per registration (0 on later writes, which keep it)' },
    { pattern: 'Domains indexed marker (backfill)', pk: 'PROJECT#<projectId>', sk: 'DOMAINSINDEXED', operation: 'GetItem per domain list; Put once per project', wcu: '1 once (+ about 3 per older domain, once)' },
    { pattern: 'Domain owner (verified name -> project)', pk: 'DOMAINCLAIM#<domain>', sk: 'DOMAINCLAIM', operation: 'GetItem, conditional PutItem', wcu: '1 per domain verified' },
    { pattern: 'Domains due for a re-check (gsi1)', pk: 'gsi1pk DOMAINCHECK#<shard of domain>', sk: 'gsi1sk <next check>', operation: 'Query all 4 shards <= now', wcu: '1 per check (rare)' },
    { pattern: 'Every domain, for the DNS sweep (gsi2)', pk: 'gsi2pk DOMAINS', sk: 'gsi2sk <domain>#<p>', operation: 'Query gsi2, paged', wcu: '0' },
    { pattern: 'Verification page token -> domain', pk: 'VERIFYPAGE#<token>', sk: 'VERIFYPAGE', operation: 'GetItem', wcu: '1 per registration' },
  ],
  sender: [
    { pattern: 'Sender profile of a project', pk: 'PROJECT#<projectId>', sk: 'SENDER#<email>', operation: 'GetItem / Query', wcu: '1 to create or verify' },
    { pattern: 'Sender confirmation link -> sender', pk: 'SENDERCONFIRM#<token>', sk: 'SENDERCONFIRM', operation: 'Put, GetItem', wcu: '1 per mailbox request' },
    { pattern: 'Senders awaiting mailbox confirmation (gsi1)', pk: 'gsi1pk SENDERCHECK', sk: 'gsi1sk <next check>', operation: 'Query gsi1', wcu: '1 per check (rare)' },
  ],
  replyDomain: [{ pattern: 'Reply domain of a project', pk: 'PROJECT#<projectId>', sk: 'REPLYDOMAIN#<d>', operation: 'Query begins_with', wcu: '1 to register' }],
  trackingDomain: [
    { pattern: 'Tracking domain of a project', pk: 'PROJECT#<projectId>', sk: 'TRACKDOMAIN#<d>', operation: 'Query begins_with', wcu: '1 to register' },
    { pattern: 'Tracking domains awaiting TLS (gsi1)', pk: 'gsi1pk TRACKTLS', sk: 'gsi1sk <next check>', operation: 'sparse: CNAME verified, TLS not active; Query gsi1 <= now', wcu: '1 per check (rare)' },
  ],
};
