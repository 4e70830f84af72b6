import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cursorOfStartKey, partitionListQuery, readBoundedPage } from '../../platform/store/bounded-list';
import { startKeyOfCursor } from '../../platform/http/cursor';
import type { BoundedTotal, PageRequest } from '../../platform/http/pagination';
import { batchGetAll } from '../../platform/store/batch-get';
import { stripKeys, type Db } from '../../platform/store/client';
import { writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import { queryAllByPrefix } from '../../platform/store/query';
import { versionedPut } from '../../platform/store/versioned-put';
import {
  DOMAIN_SWEEP_PARTITION,
  DOMAIN_SK_PREFIX,
  domainCheckIndex,
  domainCheckPartitions,
  domainClaimKey,
  domainKey,
  domainListIndex,
  domainListPartition,
  domainOfSortKey,
  domainsIndexedKey,
  domainSweepIndex,
  projectKey,
  verificationPageKey,
} from '../../platform/store/keys';
import type { SendingDomain } from './domain';
// The subdomains' keys and types (their items are kept by this gateway too, at the end of the file).
import { applyTransition } from '../../platform/store/aggregate';
import { trackingDomainLifecycle } from '../../platform/store/aggregates/identities';
import { REPLY_DOMAIN_SK_PREFIX, TRACKING_DOMAIN_SK_PREFIX, TRACKING_TLS_PARTITION, replyDomainKey, trackingDomainKey, trackingTlsIndex } from '../../platform/store/keys';
import type { Subdomain, SubdomainKind, TrackingTls } from './subdomain';

export type { SendingDomain, VerificationStatus } from './domain';

const INDEX_ATTRIBUTES = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi4pk', 'gsi4sk'];

function toItem(record: SendingDomain): Record<string, unknown> {
  return {
    ...domainKey(record.project_id, record.domain),
    ...record,
    domain: record.domain.toLowerCase(),
    ...domainSweepIndex(record.project_id, record.domain),
    ...domainListIndex(record.project_id, record.created_at, record.domain),
    // Only domains still waiting for the provider are in the re-check index.
    ...(record.next_check_at ? domainCheckIndex(record.next_check_at, record.project_id, record.domain) : {}),
  };
}

function fromItem(item: Record<string, unknown>): SendingDomain {
  const record = stripKeys<Record<string, unknown>>(item);
  for (const name of INDEX_ATTRIBUTES) delete record[name];
  return record as unknown as SendingDomain;
}

/** The domain record of a project, or undefined. */
export async function getDomain(db: Db, projectId: string, domain: string, consistent = false): Promise<SendingDomain | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: domainKey(projectId, domain), ConsistentRead: consistent }));
  return out.Item ? fromItem(out.Item) : undefined;
}

/** Every sending domain of a project. */
export async function listDomains(db: Db, projectId: string): Promise<SendingDomain[]> {
  return (await queryAllByPrefix(db, projectKey(projectId).pk, DOMAIN_SK_PREFIX)).map(fromItem);
}

/**
 * One page of a project's domains, newest first (offset pages or a cursor, see readBoundedPage):
 * the keys-only list index gives the page's domain names, then one BatchGet reads each domain item.
 */
export async function pageDomains(db: Db, projectId: string, page: PageRequest, cursor: string | undefined): Promise<{ domains: SendingDomain[] } & BoundedTotal> {
  const part = domainListPartition(projectId);
  const from = startKeyOfCursor(cursor, ['pk', 'sk', part.pkName, part.skName], (k) => k[part.pkName] === part.pk && k.pk === projectKey(projectId).pk);
  await ensureDomainListEntries(db, projectId);
  const listed = await readBoundedPage(db, partitionListQuery(db, part), page, from);
  const keys = listed.items.map((entry) => ({ ...domainKey(projectId, domainOfSortKey(String(entry.sk))) }));
  const byName = new Map((await batchGetAll(db, keys)).map(fromItem).map((d) => [d.domain, d]));
  // An entry whose item is gone between the two reads is left out (domains are not deleted today).
  const domains = listed.items.map((entry) => byName.get(domainOfSortKey(String(entry.sk)))).filter((d): d is SendingDomain => d !== undefined);
  return { domains, total: listed.total, totalIsEstimate: listed.totalIsEstimate, nextCursor: cursorOfStartKey(listed.next) };
}

/**
 * Gives every domain written before the list index existed its entry, once per project: while the
 * project's marker is absent, reads its domains (the one read of them all) and sets each one's
 * index attributes on the condition that it still has the `created_at` read (a recreate since wrote
 * its own), then writes the marker. Idempotent and safe under parallel lists; a failure leaves the
 * marker unwritten, so the next list does it again. Afterwards a list costs one GetItem more.
 */
async function ensureDomainListEntries(db: Db, projectId: string): Promise<void> {
  const marker = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: domainsIndexedKey(projectId) }));
  if (marker.Item) return;
  const items = await queryAllByPrefix(db, projectKey(projectId).pk, DOMAIN_SK_PREFIX);
  for (const item of items.filter((i) => !i.gsi4pk)) {
    const index = domainListIndex(projectId, String(item.created_at), String(item.domain));
    // A lost condition: a recreate since wrote the domain with its own entry.
    await writtenUnlessConditionFails(
      db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: domainKey(projectId, String(item.domain)),
          UpdateExpression: 'SET gsi4pk = :pk, gsi4sk = :sk',
          ConditionExpression: 'created_at = :created',
          ExpressionAttributeValues: { ':pk': index.gsi4pk, ':sk': index.gsi4sk, ':created': item.created_at },
        }),
      ),
    );
  }
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...domainsIndexedKey(projectId), indexed_at: new Date().toISOString() } }));
}

/**
 * Writes a domain record whole, conditionally: a new record must not exist yet, an existing one
 * must still be at `expectedVersion` (so two verifications cannot both make the same transition).
 * False when another write got there first.
 */
export function saveDomain(db: Db, record: SendingDomain, expectedVersion: number | 'new'): Promise<boolean> {
  return versionedPut(db, toItem(record), expectedVersion);
}

/** Writes a domain record whole with no condition (seed and reconciliation of the local demo domain). */
export async function putDomain(db: Db, record: Omit<SendingDomain, 'version' | 'check_count' | 'last_checked_at' | 'dns_records' | 'dkim_tokens' | 'verification_token' | 'sender_profile_id'> & Partial<SendingDomain>): Promise<void> {
  const full: SendingDomain = {
    version: 1,
    check_count: 0,
    last_checked_at: null,
    dns_records: [],
    dkim_tokens: [],
    verification_token: '',
    sender_profile_id: '',
    ...record,
  };
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: toItem(full) }));
}

/** The project that verified a domain name, or undefined while no project has. */
export async function findDomainOwner(db: Db, domain: string): Promise<string | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: domainClaimKey(domain), ConsistentRead: true }));
  // Claims written before ownership needed a DNS proof may say `verified: false`: those own nothing.
  return out.Item?.verified === true ? (out.Item.project_id as string) : undefined;
}

/**
 * Ties a verified domain name to the project that proved it owns it. The write is conditional, so
 * of two projects that prove ownership the first one wins; the second gets false. Calling it again
 * for the owner is harmless (true).
 */
export function claimVerifiedDomain(db: Db, domain: string, projectId: string): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...domainClaimKey(domain), project_id: projectId, verified: true },
        ConditionExpression: 'attribute_not_exists(pk) OR project_id = :p OR verified = :f',
        ExpressionAttributeValues: { ':p': projectId, ':f': false },
      }),
    ),
  );
}

/** Domains whose next provider check is due at `nowIso` or earlier (oldest first, over every shard). */
export async function domainsDueForCheck(db: Db, nowIso: string, limit = 50): Promise<{ project_id: string; domain: string }[]> {
  const pages = await Promise.all(
    domainCheckPartitions().map((pk) =>
      db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
          ExpressionAttributeValues: { ':pk': pk, ':now': `${nowIso}#~` },
          Limit: limit,
        }),
      ),
    ),
  );
  const due = pages.flatMap((out) => out.Items ?? []).sort((a, b) => String(a.gsi1sk).localeCompare(String(b.gsi1sk)));
  return due.slice(0, limit).map((i) => ({ project_id: i.project_id as string, domain: i.domain as string }));
}

/** One page of every domain of every project (for the DNS sweep). */
export async function allDomainsPage(
  db: Db,
  start?: Record<string, unknown>,
): Promise<{ domains: SendingDomain[]; next?: Record<string, unknown> }> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': DOMAIN_SWEEP_PARTITION },
      ExclusiveStartKey: start,
    }),
  );
  return { domains: (out.Items ?? []).map(fromItem), next: out.LastEvaluatedKey };
}

/** Stores the lookup from a verification-page token to its domain. */
export async function putVerificationPage(db: Db, token: string, projectId: string, domain: string): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...verificationPageKey(token), project_id: projectId, domain } }));
}

/** The domain a verification-page token points at, or undefined. */
export async function findVerificationPage(db: Db, token: string): Promise<{ project_id: string; domain: string } | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: verificationPageKey(token) }));
  return out.Item ? { project_id: out.Item.project_id as string, domain: out.Item.domain as string } : undefined;
}

// ---- Reply and tracking subdomains (subdomains.ts): `RDOMAIN#` / `TDOMAIN#` items under the project, tracking ones due for an HTTPS check in gsi1.

const subdomainKey = (kind: SubdomainKind, projectId: string, parent: string) =>
  kind === 'reply' ? replyDomainKey(projectId, parent) : trackingDomainKey(projectId, parent);

/** A stored subdomain without its key and index attributes (the index is derived again on every put). */
function subdomainOf(item: Record<string, unknown>): Subdomain {
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
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: subdomainKey(kind, projectId, parent), ConsistentRead: consistent }));
  return out.Item ? subdomainOf(out.Item) : undefined;
}

/** Both subdomains of one sending domain (either may be missing). */
export async function subdomainsOf(db: Db, projectId: string, parent: string): Promise<{ reply?: Subdomain; tracking?: Subdomain }> {
  const [reply, tracking] = await Promise.all([getSubdomain(db, 'reply', projectId, parent), getSubdomain(db, 'tracking', projectId, parent)]);
  return { reply, tracking };
}

/** The reply and tracking subdomains of several sending domains of a project, in one BatchGet (2 keys a domain), by sending domain. */
export async function subdomainsOfMany(db: Db, projectId: string, parents: readonly string[]): Promise<Map<string, { reply?: Subdomain; tracking?: Subdomain }>> {
  const keys = parents.flatMap((parent) => [{ ...subdomainKey('reply', projectId, parent) }, { ...subdomainKey('tracking', projectId, parent) }]);
  const found = new Map<string, { reply?: Subdomain; tracking?: Subdomain }>(parents.map((parent) => [parent, {}]));
  for (const sub of (await batchGetAll(db, keys)).map(subdomainOf)) {
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
  return (out.Items ?? []).map(subdomainOf);
}

/** Writes a subdomain item whole, with the TLS index entry its state calls for. */
export async function putSubdomainItem(db: Db, sub: Subdomain): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...subdomainKey(sub.kind, sub.project_id, sub.parent_domain), ...sub, ...tlsIndexOf(sub) } }));
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
 * Sets a tracking subdomain's HTTPS state and moves (or drops) its TLS index entry, touching no
 * other attribute. Written only while the CNAME is still verified; false when it no longer is (or the item is gone).
 */
export function updateTrackingTls(db: Db, sub: Subdomain, tls: TrackingTls): Promise<boolean> {
  const index = tlsIndexOf({ ...sub, tls });
  const key = subdomainKey('tracking', sub.project_id, sub.parent_domain);
  return 'gsi1pk' in index
    ? applyTransition(db, trackingDomainLifecycle, 'recordTls', key, { tls, gsi1pk: index.gsi1pk, gsi1sk: index.gsi1sk })
    : applyTransition(db, trackingDomainLifecycle, 'settleTls', key, { tls });
}
