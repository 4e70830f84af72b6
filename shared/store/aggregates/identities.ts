import { defineAggregate, type AccessPattern, type ItemKey } from '../aggregate';
import { shardOf } from './shards';

/** Shards of the deployment-wide re-check partition (a domain always lands on the same one). */
const DOMAIN_CHECK_SHARDS = 4;
const DOMAIN_SK_PREFIX = 'DOMAIN#';
const DOMAIN_SWEEP_PARTITION = 'DOMAINS';

/**
 * A sending domain of a project, with the claim that ties a verified name to its one project, its
 * public verification page and the project's "every domain is listed" marker. Written whole under
 * its `version` (versionedPut); domain items carry their DNS records (about 2 KB, 2 to 3 WCU a write).
 */
export const domain = defineAggregate({
  name: 'sending domain',
  keys: {
    /** Key of a sending domain inside its project's partition. */
    domainKey: (projectId: string, name: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `DOMAIN#${name.toLowerCase()}` }),
    /** Prefix of a project's sending-domain items (Query with begins_with). */
    DOMAIN_SK_PREFIX,
    /** Key of the item that ties a domain name to the one project that owns it. */
    domainClaimKey: (name: string): ItemKey => ({ pk: `DOMAINCLAIM#${name.toLowerCase()}`, sk: 'DOMAINCLAIM' }),
    /** Key of the lookup from a public verification-page token to its domain. */
    verificationPageKey: (token: string): ItemKey => ({ pk: `VERIFYPAGE#${token}`, sk: 'VERIFYPAGE' }),
    DOMAIN_CHECK_SHARDS,
    /** gsi1 partitions of the domains due for a re-check, one per shard. */
    domainCheckPartitions: (): string[] => Array.from({ length: DOMAIN_CHECK_SHARDS }, (_, s) => `DOMAINCHECK#${s}`),
    /** gsi1 attributes of a domain due for a re-check at `dueAt` (ISO); removed once it is final. */
    domainCheckIndex: (dueAt: string, projectId: string, name: string) => ({
      gsi1pk: `DOMAINCHECK#${shardOf(name.toLowerCase(), DOMAIN_CHECK_SHARDS)}`,
      gsi1sk: `${dueAt}#${projectId}#${name.toLowerCase()}`,
    }),
    /** gsi4 attributes of a domain in its project's list, newest first (keys only; the list reads the page's items by key). */
    domainListIndex: (projectId: string, createdAt: string, name: string) => ({ gsi4pk: `DOMAINLIST#${projectId}`, gsi4sk: `${createdAt}#${name.toLowerCase()}` }),
    /** The gsi4 partition of a project's domains. */
    domainListPartition: (projectId: string) => ({ index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: `DOMAINLIST#${projectId}` }),
    /** Key of the marker saying every domain of a project has its list entry (domains registered before the list existed get theirs once). */
    domainsIndexedKey: (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'DOMAINSINDEXED' }),
    /** Reads the domain name back from a domain's sort key. */
    domainOfSortKey: (sk: string): string => sk.slice(DOMAIN_SK_PREFIX.length),
    /** gsi2 partition that lists every domain for the DNS sweep. */
    DOMAIN_SWEEP_PARTITION,
    /** gsi2 attributes that list every domain for the DNS sweep. */
    domainSweepIndex: (projectId: string, name: string) => ({ gsi2pk: DOMAIN_SWEEP_PARTITION, gsi2sk: `${name.toLowerCase()}#${projectId}` }),
  },
  indexes: ['gsi1', 'gsi2', 'gsi4'],
});

const SENDER_CHECK_PARTITION = 'SENDERCHECK';

/** A sender profile (one per address) of a project and its confirmation link; written whole under its `version`. */
export const sender = defineAggregate({
  name: 'sender profile',
  keys: {
    /** Key of a sender profile (one per address) inside its project's partition. */
    senderKey: (projectId: string, email: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `SENDER#${email.toLowerCase()}` }),
    /** Prefix of a project's sender items. */
    SENDER_SK_PREFIX: 'SENDER#',
    /** Key of the lookup from a project's own sender-confirmation link token to its sender. */
    senderConfirmationKey: (token: string): ItemKey => ({ pk: `SENDERCONFIRM#${token}`, sk: 'SENDERCONFIRM' }),
    /** gsi1 partition of the magic-link senders waiting for their owners. */
    SENDER_CHECK_PARTITION,
    /** gsi1 attributes of a magic-link sender waiting for its owner to confirm. */
    senderCheckIndex: (dueAt: string, projectId: string, email: string) => ({ gsi1pk: SENDER_CHECK_PARTITION, gsi1sk: `${dueAt}#${projectId}#${email.toLowerCase()}` }),
  },
  indexes: ['gsi1'],
});

const TRACKING_TLS_PARTITION = 'TRACKTLS';

/** A reply domain of a project (inbound mail). */
export const replyDomain = defineAggregate({
  name: 'reply domain',
  keys: {
    /** Key of a reply domain inside its project's partition. */
    replyDomainKey: (projectId: string, name: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `REPLYDOMAIN#${name.toLowerCase()}` }),
    /** Prefix of a project's reply-domain items. */
    REPLY_DOMAIN_SK_PREFIX: 'REPLYDOMAIN#',
  },
});

/** A tracking domain of a project, in the TLS index while its HTTPS is not active. */
export const trackingDomain = defineAggregate({
  name: 'tracking domain',
  keys: {
    /** Key of a tracking domain inside its project's partition. */
    trackingDomainKey: (projectId: string, name: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `TRACKDOMAIN#${name.toLowerCase()}` }),
    /** Prefix of a project's tracking-domain items. */
    TRACKING_DOMAIN_SK_PREFIX: 'TRACKDOMAIN#',
    /** gsi1 partition of the tracking domains whose HTTPS (edge tenant and certificate) is not active yet. */
    TRACKING_TLS_PARTITION,
    /** gsi1 attributes of a tracking domain whose HTTPS is due for a check at `dueAt` (ISO). */
    trackingTlsIndex: (dueAt: string, projectId: string, parentDomain: string) => ({ gsi1pk: TRACKING_TLS_PARTITION, gsi1sk: `${dueAt}#${projectId}#${parentDomain.toLowerCase()}` }),
  },
  indexes: ['gsi1'],
  // Its HTTPS state is written only while its CNAME is verified (a DNS sweep writing its records
  // meanwhile keeps them): in the TLS index while the certificate is not active, out of it once it is.
  transitions: {
    recordTls: { from: ['verified'], to: 'verified', set: ['tls', 'gsi1pk', 'gsi1sk'] },
    settleTls: { from: ['verified'], to: 'verified', set: ['tls'], remove: ['gsi1pk', 'gsi1sk'] },
  },
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
