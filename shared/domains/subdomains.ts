import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Services } from '../container';
import { badRequest, conflict } from '../errors';
import { stripKeys, type Db } from '../store/client';
import { REPLY_DOMAIN_SK_PREFIX, TRACKING_DOMAIN_SK_PREFIX, projectKey, replyDomainKey, trackingDomainKey } from '../store/keys';
import type { DnsRecord, RecordStatus } from './domain';
import { isDomainName, providerHosts } from './dns-records';
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
}

export const SUBDOMAIN_LABEL: Record<SubdomainKind, string> = { reply: 'reply', tracking: 'track' };

const keyOf = (kind: SubdomainKind, projectId: string, parent: string) =>
  kind === 'reply' ? replyDomainKey(projectId, parent) : trackingDomainKey(projectId, parent);

/** The reply or tracking subdomain of a sending domain, or undefined. */
export async function getSubdomain(db: Db, kind: SubdomainKind, projectId: string, parent: string): Promise<Subdomain | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keyOf(kind, projectId, parent) }));
  return out.Item ? stripKeys<Subdomain>(out.Item) : undefined;
}

/** Both subdomains of one sending domain (either may be missing). */
export async function subdomainsOf(db: Db, projectId: string, parent: string): Promise<{ reply?: Subdomain; tracking?: Subdomain }> {
  const [reply, tracking] = await Promise.all([getSubdomain(db, 'reply', projectId, parent), getSubdomain(db, 'tracking', projectId, parent)]);
  return { reply, tracking };
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
  return (out.Items ?? []).map((i) => stripKeys<Subdomain>(i));
}

/** Writes a subdomain whole. */
export async function putSubdomain(db: Db, sub: Subdomain): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...keyOf(sub.kind, sub.project_id, sub.parent_domain), ...sub } }));
}

/**
 * Registers the reply or tracking subdomain of one of the project's sending domains. An existing
 * one is never overwritten: it is returned as it is, with `existing: true`.
 */
export async function registerSubdomain(
  deps: Services,
  projectId: string,
  kind: SubdomainKind,
  body: unknown,
): Promise<{ subdomain: Subdomain; existing: boolean }> {
  const raw = (body ?? {}) as Record<string, unknown>;
  const parent = typeof raw.domain === 'string' ? raw.domain.trim().toLowerCase().replace(/\.$/, '') : '';
  if (!parent) throw badRequest('Missing required fields: domain');
  if (!isDomainName(parent)) throw badRequest(`Invalid domain: ${parent}`);
  const label = SUBDOMAIN_LABEL[kind];
  // Accept either the sending domain or the subdomain itself.
  const sending = parent.startsWith(`${label}.`) && !(await getDomain(deps.db, projectId, parent)) ? parent.slice(label.length + 1) : parent;
  if (!(await getDomain(deps.db, projectId, sending))) {
    throw badRequest(`Register ${sending} with POST /domains/register before adding its ${kind} domain`);
  }
  const found = await getSubdomain(deps.db, kind, projectId, sending);
  if (found) return { subdomain: found, existing: true };
  const hosts = providerHosts(deps.config);
  const record: DnsRecord =
    kind === 'reply'
      ? { id: randomUUID(), record_type: 'MX', name: label, value: hosts.inboundHost, priority: 10, purpose: 'reply_mx', status: 'not_set', ttl_hint: 300, last_checked_at: null }
      : { id: randomUUID(), record_type: 'CNAME', name: label, value: hosts.trackingHost, purpose: 'tracking_cname', status: 'not_set', ttl_hint: 300, last_checked_at: null };
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
  return { domain: sub.domain, status: sub.status, records: sub.records, last_checked_at: sub.last_checked_at };
}

/** A record status from a DNS answer: the expected value present, another value present, or nothing. */
export function statusFromAnswer(found: string[], matches: (value: string) => boolean): RecordStatus {
  if (found.length === 0) return 'not_set';
  return found.some(matches) ? 'verified' : 'mismatch';
}
