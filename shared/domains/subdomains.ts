import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ShortLivedCache } from '../cache/short-lived-cache';
import type { Services } from '../container';
import type { Clock } from '../ports';
import { badRequest, conflict } from '../errors';
import { applyTransition } from '../store/aggregate';
import { trackingDomain } from '../store/aggregates/identities';
import { batchGetAll } from '../store/batch-get';
import { stripKeys, type Db } from '../store/client';
import {
  REPLY_DOMAIN_SK_PREFIX,
  TRACKING_DOMAIN_SK_PREFIX,
  TRACKING_TLS_PARTITION,
  projectKey,
  replyDomainKey,
  trackingDomainKey,
  trackingTlsIndex,
} from '../store/keys';
import type { DnsRecord, RecordStatus } from './domain';
import type { SubdomainInput } from './subdomain-request';
import { providerHosts, type ProviderHosts } from './dns-records';
import { getDomain } from './domain-repository';

/**
 * Reply and tracking subdomains of a sending domain. A reply domain (`reply.<domain>`, an MX to the
 * provider's inbound host) makes replies land on the project's own name; a tracking domain
 * (`track.<domain>`, a CNAME to the service's tracking endpoint) brands open and click links. Both
 * are checked by the DNS sweep.
 */
export type SubdomainKind = 'reply' | 'tracking';

export interface Subdomain {
  project_id: string;
  kind: SubdomainKind;
  /** The sending domain it belongs to. */
  parent_domain: string;
  /** The full subdomain name (`reply.example.com`). */
  domain: string;
  status: 'pending' | 'verified';
  records: DnsRecord[];
  created_at: string;
  last_checked_at: string | null;
  /** Tracking domains only: whether https://<domain> is served yet (docs/decisions.md, "Tracking domains and TLS"). */
  tls?: TrackingTls;
}

/** HTTPS of a tracking domain at the edge; links use the domain only once this is `active`. */
export interface TrackingTls {
  status: 'provisioning' | 'active' | 'failed';
  /** The edge's words when not active. */
  detail?: string;
  /** First time the edge was asked to serve the domain. */
  requested_at: string;
  checked_at: string;
  /** When the re-check job asks the edge again; null once active or failed. */
  next_check_at: string | null;
}

/** The refusal when the deployment has no tracking host for customers' CNAMEs to point at. */
export const TRACKING_NOT_CONFIGURED =
  'Tracking domains are not available on this deployment: it has no tracking host (TRACKING_HOST) for the CNAME to point to';

/** The refusal of a reply domain when the deployment receives no mail: its MX would lead nowhere. */
export const RECEIVING_OFF =
  'Reply domains are not available on this deployment: receiving is off (it was deployed without an inbound domain), so replies would reach nobody';

export const SUBDOMAIN_LABEL: Record<SubdomainKind, string> = { reply: 'reply', tracking: 'track' };

const keyOf = (kind: SubdomainKind, projectId: string, parent: string) =>
  kind === 'reply' ? replyDomainKey(projectId, parent) : trackingDomainKey(projectId, parent);

/** A stored subdomain without its key and index attributes (the index is derived again on every put). */
function fromItem(item: Record<string, unknown>): Subdomain {
  const { gsi1pk: _pk, gsi1sk: _sk, ...rest } = stripKeys<Record<string, unknown>>(item);
  return rest as unknown as Subdomain;
}

/**
 * The TLS index entry a tracking subdomain should have: one while its CNAME is verified and its
 * HTTPS is neither active nor failed, due at its next check (a never-checked one is due at once).
 */
function tlsIndexOf(sub: Subdomain): Record<string, string> {
  if (sub.kind !== 'tracking' || sub.status !== 'verified') return {};
  if (sub.tls && sub.tls.next_check_at === null) return {};
  return trackingTlsIndex(sub.tls?.next_check_at ?? sub.last_checked_at ?? sub.created_at, sub.project_id, sub.parent_domain);
}

/** The reply or tracking subdomain of a sending domain, or undefined. */
export async function getSubdomain(db: Db, kind: SubdomainKind, projectId: string, parent: string, consistent = false): Promise<Subdomain | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keyOf(kind, projectId, parent), ConsistentRead: consistent }));
  return out.Item ? fromItem(out.Item) : undefined;
}

/** Both subdomains of one sending domain (either may be missing). */
export async function subdomainsOf(db: Db, projectId: string, parent: string): Promise<{ reply?: Subdomain; tracking?: Subdomain }> {
  const [reply, tracking] = await Promise.all([getSubdomain(db, 'reply', projectId, parent), getSubdomain(db, 'tracking', projectId, parent)]);
  return { reply, tracking };
}

/** The reply and tracking subdomains of several sending domains of a project, in one BatchGet (2 keys a domain), by sending domain. */
export async function subdomainsOfMany(db: Db, projectId: string, parents: readonly string[]): Promise<Map<string, { reply?: Subdomain; tracking?: Subdomain }>> {
  const keys = parents.flatMap((parent) => [{ ...keyOf('reply', projectId, parent) }, { ...keyOf('tracking', projectId, parent) }]);
  const found = new Map<string, { reply?: Subdomain; tracking?: Subdomain }>(parents.map((parent) => [parent, {}]));
  for (const sub of (await batchGetAll(db, keys)).map(fromItem)) {
    const entry = found.get(sub.parent_domain);
    if (entry) entry[sub.kind] = sub;
  }
  return found;
}

/** Every reply or tracking subdomain of a project. */
export async function listSubdomains(db: Db, kind: SubdomainKind, projectId: string): Promise<Subdomain[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': projectKey(projectId).pk, ':prefix': kind === 'reply' ? REPLY_DOMAIN_SK_PREFIX : TRACKING_DOMAIN_SK_PREFIX },
    }),
  );
  return (out.Items ?? []).map(fromItem);
}

/**
 * How long a warm instance trusts a project's tracking domains for the links of its mails: a
 * domain verified (or its HTTPS made active) elsewhere is used within this bound, at once on the
 * instance that recorded it.
 */
export const TRACKING_DOMAINS_CACHE_SECONDS = 5;
const trackingDomains = new ShortLivedCache<Subdomain[]>(TRACKING_DOMAINS_CACHE_SECONDS * 1000);

/** listSubdomains(db, 'tracking', projectId), trusted for TRACKING_DOMAINS_CACHE_SECONDS (the send worker, per mail). */
export function listTrackingDomainsCached(db: Db, clock: Clock, projectId: string): Promise<Subdomain[]> {
  return trackingDomains.get(`${db.tableName}|${projectId}`, clock.now().getTime(), () => listSubdomains(db, 'tracking', projectId)) as Promise<Subdomain[]>;
}

/** Writes a subdomain whole, with the TLS index entry its state calls for. */
export async function putSubdomain(db: Db, sub: Subdomain): Promise<void> {
  // Subdomain writes are rare: this instance forgets every project's tracking domains.
  trackingDomains.forget(() => true);
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...keyOf(sub.kind, sub.project_id, sub.parent_domain), ...sub, ...tlsIndexOf(sub) } }));
}

/** Tracking subdomains whose HTTPS check is due (gsi1, oldest first), as (project, sending domain). */
export async function trackingDomainsDueForTls(db: Db, nowIso: string, limit = 25): Promise<{ project_id: string; parent_domain: string }[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
      ExpressionAttributeValues: { ':pk': TRACKING_TLS_PARTITION, ':now': `${nowIso}#~` },
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({ project_id: i.project_id as string, parent_domain: i.parent_domain as string }));
}

/**
 * Records a tracking subdomain's HTTPS state and moves (or drops) its TLS index entry, touching no
 * other attribute, so a DNS sweep writing its records meanwhile keeps them. Written only while the
 * CNAME is still verified; false when it no longer is (or the item is gone).
 */
export async function saveTrackingTls(db: Db, sub: Subdomain, tls: TrackingTls): Promise<boolean> {
  trackingDomains.forget(() => true);
  const next = { ...sub, tls };
  const index = tlsIndexOf(next);
  const key = keyOf('tracking', sub.project_id, sub.parent_domain);
  return 'gsi1pk' in index
    ? applyTransition(db, trackingDomain, 'recordTls', key, { tls, gsi1pk: index.gsi1pk, gsi1sk: index.gsi1sk })
    : applyTransition(db, trackingDomain, 'settleTls', key, { tls });
}

/**
 * The one record of a new reply (MX) or tracking (CNAME) subdomain; refused when the deployment
 * receives no mail (reply) or has no tracking host (tracking).
 */
function recordOf(kind: SubdomainKind, hosts: ProviderHosts): DnsRecord {
  const common = { id: randomUUID(), name: SUBDOMAIN_LABEL[kind], status: 'not_set', ttl_hint: 300, last_checked_at: null } as const;
  if (kind === 'reply' && !hosts.receiving) throw conflict(RECEIVING_OFF, 'RECEIVING_OFF');
  if (kind === 'reply') return { ...common, record_type: 'MX', value: hosts.inboundHost, priority: 10, purpose: 'reply_mx' };
  if (!hosts.trackingHost) throw conflict(TRACKING_NOT_CONFIGURED, 'TRACKING_NOT_CONFIGURED');
  return { ...common, record_type: 'CNAME', value: hosts.trackingHost, purpose: 'tracking_cname' };
}

/**
 * Registers the reply or tracking subdomain of one of the project's sending domains. An existing
 * one is never overwritten: it is returned as it is, with `existing: true`.
 */
export async function registerSubdomain(
  deps: Services,
  projectId: string,
  kind: SubdomainKind,
  { domain: parent }: SubdomainInput,
): Promise<{ subdomain: Subdomain; existing: boolean }> {
  const label = SUBDOMAIN_LABEL[kind];
  const record = recordOf(kind, providerHosts(deps.config));
  // Accept either the sending domain or the subdomain itself.
  const sending = parent.startsWith(`${label}.`) && !(await getDomain(deps.db, projectId, parent)) ? parent.slice(label.length + 1) : parent;
  if (!(await getDomain(deps.db, projectId, sending))) {
    throw badRequest(`Register ${sending} with POST /domains/register before adding its ${kind} domain`);
  }
  const found = await getSubdomain(deps.db, kind, projectId, sending);
  if (found) return { subdomain: found, existing: true };
  const subdomain: Subdomain = {
    project_id: projectId,
    kind,
    parent_domain: sending,
    domain: `${label}.${sending}`,
    status: 'pending',
    records: [record],
    created_at: deps.clock.now().toISOString(),
    last_checked_at: null,
  };
  try {
    await putSubdomain(deps.db, subdomain);
  } catch (error) {
    throw conflict(`Could not register ${subdomain.domain}`, 'SUBDOMAIN_FAILED', {}, error);
  }
  return { subdomain, existing: false };
}

/** The state object part 2 shows on an identity (`reply_domain`, `tracking_domain`), or null. */
export function presentSubdomain(sub: Subdomain | undefined) {
  if (!sub) return null;
  const view = { domain: sub.domain, status: sub.status, records: sub.records, last_checked_at: sub.last_checked_at };
  // `https`: whether links on the domain are live yet (pending until the edge serves it).
  return sub.kind === 'tracking' ? { ...view, https: sub.tls?.status ?? 'pending', ...(sub.tls?.detail ? { https_detail: sub.tls.detail } : {}) } : view;
}

/** A record status from a DNS answer: the expected value present, another value present, or nothing. */
export function statusFromAnswer(found: string[], matches: (value: string) => boolean): RecordStatus {
  if (found.length === 0) return 'not_set';
  return found.some(matches) ? 'verified' : 'mismatch';
}
