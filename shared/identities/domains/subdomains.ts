import { randomUUID } from 'node:crypto';
import { ShortLivedCache } from '../../platform/cache/short-lived-cache';
import type { Needs } from '../../platform/core/dependencies';
import type { Clock } from '../../platform/core/ports';
import { badRequest, conflict } from '../../platform/core/errors';
import type { Db } from '../../platform/store/client';
import type { DnsRecord, RecordStatus } from './domain';
import type { Subdomain, SubdomainKind, TrackingTls } from './subdomain';
import type { SubdomainInput } from './subdomain-request';
import { providerHosts, type ProviderHosts } from './dns-records';
import { getDomain, getSubdomain, listSubdomains, putSubdomainItem, updateTrackingTls } from './domain-repository';

export type { Subdomain, SubdomainKind, TrackingTls } from './subdomain';

/** The refusal when the deployment has no tracking host for customers' CNAMEs to point at. */
export const TRACKING_NOT_CONFIGURED =
  'Tracking domains are not available on this deployment: it has no tracking host (TRACKING_HOST) for the CNAME to point to';

/** The refusal of a reply domain when the deployment receives no mail: its MX would lead nowhere. */
export const RECEIVING_OFF =
  'Reply domains are not available on this deployment: receiving is off (it was deployed without an inbound domain), so replies would reach nobody';

export const SUBDOMAIN_LABEL: Record<SubdomainKind, string> = { reply: 'reply', tracking: 'track' };

// The subdomains' items are read and written by the domain gateway; its reads are this module's too.
export { getSubdomain, listSubdomains, subdomainsOf, subdomainsOfMany, trackingDomainsDueForTls } from './domain-repository';

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
  await putSubdomainItem(db, sub);
}

/**
 * Records a tracking subdomain's HTTPS state and moves (or drops) its TLS index entry, touching no
 * other attribute, so a DNS sweep writing its records meanwhile keeps them. Written only while the
 * CNAME is still verified; false when it no longer is (or the item is gone).
 */
export function saveTrackingTls(db: Db, sub: Subdomain, tls: TrackingTls): Promise<boolean> {
  trackingDomains.forget(() => true);
  return updateTrackingTls(db, sub, tls);
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
  deps: Needs<'db' | 'config' | 'clock'>,
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
