import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, BATCH_GET_LIMIT } from '../../platform/store/batch-get';
import type { Db } from '../../platform/store/client';
import { isKeyString } from '../../platform/http/cursor';
import { queryAll } from '../../platform/store/query';
import type { TransactItem } from '../../platform/store/transact';
import { versionedPut } from '../../platform/store/versioned-put';
import {
  COUNTER_SHARDS,
  emailOfLeadSortKey,
  LEAD_COUNT_SK_PREFIX,
  LEAD_SK_PREFIX,
  leadCounterKey,
  leadIdKey,
  leadIndexes,
  leadKey,
  leadListPartition,
  leadPartition,
  leadShards,
  projectKey,
} from '../../platform/store/keys';
import type { Lead } from './lead';

/** The stored item of a lead: its key, its index attributes and its fields. */
export function leadItemOf(lead: Lead): Record<string, unknown> {
  return { ...leadKey(lead.project_id, lead.email), ...leadIndexes(lead.project_id, lead), ...lead };
}

/** Replaces a lead whose stored version is still `expectedVersion`; false when another write got there first. */
export function putLeadVersion(db: Db, lead: Lead, expectedVersion: number): Promise<boolean> {
  return versionedPut(db, leadItemOf(lead), expectedVersion);
}

/** A lead from a stored item (keys and index attributes dropped). */
export function leadFromItem(item: Record<string, unknown>): Lead {
  const { id, project_id, email, data, storeplatform_customer_id, created_at, updated_at, version, name_lc } = item as unknown as Lead;
  return { id, project_id, email, data: data ?? {}, storeplatform_customer_id: storeplatform_customer_id ?? null, created_at, updated_at, version, ...(name_lc ? { name_lc } : {}) };
}

/** Reads keys 100 per request, every request in parallel (a bulk call's 1,000 keys are 10 requests at once). */
export async function batchGetParallel(db: Db, keys: readonly Record<string, unknown>[], consistentRead = false): Promise<Record<string, unknown>[]> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < keys.length; i += BATCH_GET_LIMIT) chunks.push(keys.slice(i, i + BATCH_GET_LIMIT));
  return (await Promise.all(chunks.map((chunk) => batchGetAll(db, chunk, undefined, { consistentRead })))).flat();
}

/** The leads of the given (lowercased) emails, keyed by email; `consistent` for read-then-write. */
export async function getLeadsByEmail(db: Db, projectId: string, emails: readonly string[], consistent = false): Promise<Map<string, Lead>> {
  const items = await batchGetParallel(db, emails.map((e) => ({ ...leadKey(projectId, e) })), consistent);
  return new Map(items.map((item) => [String(item.email), leadFromItem(item)]));
}

/** One lead by its (lowercased) email, read consistently, or undefined. */
export async function getLeadByEmail(db: Db, projectId: string, email: string): Promise<Lead | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: leadKey(projectId, email), ConsistentRead: true }));
  return out.Item ? leadFromItem(out.Item) : undefined;
}

/** One lead by id (through its id item), or undefined. */
export async function getLeadById(db: Db, projectId: string, leadId: string): Promise<Lead | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: leadIdKey(projectId, leadId), ConsistentRead: true }));
  if (typeof out.Item?.email !== 'string') return undefined;
  const lead = await getLeadByEmail(db, projectId, out.Item.email);
  // An id item outlives its lead only between the steps of a delete: the lead is gone.
  return lead?.id === leadId ? lead : undefined;
}

/** The leads of the given ids, in that order (absent ones left out). */
export async function getLeadsByIds(db: Db, projectId: string, ids: readonly string[]): Promise<Lead[]> {
  const idItems = await batchGetParallel(db, ids.map((id) => ({ ...leadIdKey(projectId, id) })));
  const emailOf = new Map(idItems.map((item) => [String(item.pk).slice(String(item.pk).lastIndexOf('#') + 1), String(item.email)]));
  const leads = await getLeadsByEmail(db, projectId, [...new Set(emailOf.values())]);
  return ids.flatMap((id) => {
    const lead = leads.get(emailOf.get(id) ?? '');
    return lead && lead.id === id ? [lead] : [];
  });
}

/** The leads stored under the given table keys (from a keys-only index), in that order. */
export async function getLeadsByKeys(db: Db, keys: readonly { pk: string; sk: string }[]): Promise<Lead[]> {
  const items = await batchGetParallel(db, keys.map((k) => ({ pk: k.pk, sk: k.sk })));
  const byEmail = new Map(items.map((item) => [String(item.email), leadFromItem(item)]));
  return keys.flatMap((k) => byEmail.get(emailOfLeadSortKey(k.sk)) ?? []);
}

/** Transaction actions that create a lead: the lead, unless its email exists, and its id item. */
export function createLeadActions(db: Db, lead: Lead): TransactItem[] {
  return [
    { Put: { TableName: db.tableName, Item: leadItemOf(lead), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: db.tableName, Item: { ...leadIdKey(lead.project_id, lead.id), email: lead.email }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
}

/** Transaction action that replaces a lead still at `expectedVersion` (same email). */
export function replaceLeadAction(db: Db, lead: Lead, expectedVersion: number): TransactItem {
  return { Put: { TableName: db.tableName, Item: leadItemOf(lead), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } } };
}

/** Transaction actions that move a lead to a new email: the old item goes (if unchanged), the new must not exist, the id item follows. */
export function moveLeadActions(db: Db, previous: Lead, next: Lead): TransactItem[] {
  return [
    { Delete: { TableName: db.tableName, Key: leadKey(previous.project_id, previous.email), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': previous.version } } },
    { Put: { TableName: db.tableName, Item: leadItemOf(next), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: db.tableName, Item: { ...leadIdKey(next.project_id, next.id), email: next.email } } },
  ];
}

/** Transaction actions that delete a lead still at its version, and its id item. */
export function deleteLeadActions(db: Db, lead: Lead): TransactItem[] {
  return [
    { Delete: { TableName: db.tableName, Key: leadKey(lead.project_id, lead.email), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': lead.version } } },
    { Delete: { TableName: db.tableName, Key: leadIdKey(lead.project_id, lead.id) } },
  ];
}

/** Transaction action that adds `delta` to one shard of a project's lead counter. */
export function leadCounterAction(db: Db, projectId: string, delta: number, shard = Math.floor(Math.random() * COUNTER_SHARDS)): TransactItem {
  return { Update: { TableName: db.tableName, Key: leadCounterKey(projectId, shard), UpdateExpression: 'ADD #n :d', ExpressionAttributeNames: { '#n': 'count' }, ExpressionAttributeValues: { ':d': delta } } };
}

/** The project's lead count: the sum of its counter shards (one Query). */
export async function countLeads(db: Db, projectId: string): Promise<number> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': projectKey(projectId).pk, ':prefix': LEAD_COUNT_SK_PREFIX },
    ConsistentRead: true,
  });
  return Math.max(0, items.reduce((sum, item) => sum + Number(item.count ?? 0), 0));
}

/** The first `limit` entries of one index partition, newest (highest sort key) first, keys only. */
async function newestKeys(db: Db, part: { index: string; pkName: string; pk: string }, limit: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: part.index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': part.pkName },
        ExpressionAttributeValues: { ':pk': part.pk },
        ScanIndexForward: false,
        Limit: Math.min(limit - items.length, 1000),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items;
}

/**
 * Entries `offset` to `offset + limit` of sharded index partitions merged newest first: each shard
 * is read to `offset + limit` entries at most, in parallel, and the merge sorts by the index sort key.
 */
export async function pageNewestAcrossShards(
  db: Db,
  parts: readonly { index: string; pkName: string; skName: string; pk: string }[],
  offset: number,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const perShard = await Promise.all(parts.map((part) => newestKeys(db, part, offset + limit)));
  const skName = parts[0]?.skName ?? 'sk';
  return perShard
    .flat()
    .sort((a, b) => (String(a[skName]) < String(b[skName]) ? 1 : String(a[skName]) > String(b[skName]) ? -1 : 0))
    .slice(offset, offset + limit);
}

/** The newest-first list partitions of a project's leads (gsi3), one per shard. */
export const newestLeadPartitions = (projectId: string) => leadShards().map((s) => leadListPartition.newest(projectId, s));

/** One page of one lead partition in email order, whole items (dynamic segment evaluation reads the audience this way). */
export async function readLeadShardPage(db: Db, projectId: string, shard: number, start: Record<string, unknown> | undefined, limit: number): Promise<{ leads: Lead[]; next?: Record<string, unknown> }> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': leadPartition(projectId, shard), ':prefix': LEAD_SK_PREFIX },
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return { leads: (out.Items ?? []).map(leadFromItem), next: out.LastEvaluatedKey };
}

// The lead search: its reads are the lead aggregate's, so they live in its gateway.

/**
 * Lead search (`GET /v1/leads?search=`), bounded by its page. Matches come as one stream in two
 * phases: the leads whose email starts with the prefix, in email order (the lead partitions), then
 * the leads whose name starts with it, in name order (gsi4, `name#email`). A lead in both phases is
 * an entry of each but shown only in the first. A window of N entries reads at most N + 1 keys of
 * each shard of each phase (32 Queries of N + 1 keys at most), never the whole prefix.
 */

/** Where a window starts: a phase, and the sort key of the last entry already taken in it. */
export interface SearchPosition {
  phase: 'email' | 'name';
  after?: string;
}

export interface SearchEntry {
  /** The lead's table key. */
  pk: string;
  sk: string;
  /** False for a name-phase entry of a lead the email phase already listed. */
  shown: boolean;
}

export interface SearchWindow {
  entries: SearchEntry[];
  /** Where the next window starts; undefined once the stream is at its end. */
  next?: SearchPosition;
}

/** The last character a key can have: a key that starts with the prefix sorts below prefix + this. */
const HIGHEST = '\u{10FFFF}';

/** The start of the stream. */
export const SEARCH_START: SearchPosition = { phase: 'email' };

/** True when `position` can be a position of a search for `prefix` (a cursor checked before use). */
export function isSearchPosition(value: unknown, prefix: string): value is SearchPosition {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { phase, after, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || (phase !== 'email' && phase !== 'name')) return false;
  if (phase === 'name' && prefix.includes('@')) return false;
  if (after === undefined) return true;
  return isKeyString(after) && after.startsWith(phase === 'email' ? `${LEAD_SK_PREFIX}${prefix}` : prefix);
}

/** Up to `size` entries of the search for `prefix` (lowercased) from `from`, and where the next window starts. */
export async function searchWindow(db: Db, projectId: string, prefix: string, from: SearchPosition, size: number): Promise<SearchWindow> {
  const entries: SearchEntry[] = [];
  let position: SearchPosition | undefined = from;
  while (position && entries.length < size) {
    const phase: 'email' | 'name' = position.phase;
    const taken = await phaseWindow(db, projectId, prefix, phase, position.after, size - entries.length);
    entries.push(...taken.entries);
    if (taken.more) position = { phase, after: taken.lastKey };
    else position = phase === 'email' && !prefix.includes('@') ? { phase: 'name' } : undefined;
  }
  return { entries, next: position };
}

/**
 * The first `size` entries of a phase after `after`, merged across the shards. Each shard is read
 * `size + 1` keys at most: the shard whose last key read is smallest holds at least `size` entries
 * up to that key, so every one of the first `size` entries overall is among those read.
 */
async function phaseWindow(db: Db, projectId: string, prefix: string, phase: 'email' | 'name', after: string | undefined, size: number) {
  const reads = await Promise.all(leadShards().map((shard) => readShard(db, projectId, prefix, phase, shard, after, size + 1)));
  const merged = reads
    .flatMap((r) => r.entries)
    .filter((e) => after === undefined || e.key > after)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const taken = merged.slice(0, size);
  // More may follow when a shard stopped early or the merge had more than the window takes.
  const more = merged.length > size || reads.some((r) => !r.exhausted);
  const emailPrefix = `${LEAD_SK_PREFIX}${prefix}`;
  return {
    entries: taken.map((e) => ({ pk: e.pk, sk: e.sk, shown: phase === 'email' || !e.sk.startsWith(emailPrefix) })),
    more: more && taken.length > 0,
    lastKey: taken[taken.length - 1]?.key,
  };
}

/** Up to `limit` keys of one shard of one phase from `after` (inclusive: the caller drops it). */
async function readShard(db: Db, projectId: string, prefix: string, phase: 'email' | 'name', shard: number, after: string | undefined, limit: number) {
  const query =
    phase === 'email'
      ? { pkName: 'pk', skName: 'sk', pk: leadPartition(projectId, shard), index: undefined, low: `${LEAD_SK_PREFIX}${prefix}` }
      : { ...leadListPartition.name(projectId, shard), low: prefix };
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      ...(query.index ? { IndexName: query.index } : {}),
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
      ExpressionAttributeNames: { '#pk': query.pkName, '#sk': query.skName },
      ExpressionAttributeValues: { ':pk': query.pk, ':low': after ?? query.low, ':high': `${query.low}${HIGHEST}` },
      ...(phase === 'email' ? { ProjectionExpression: '#pk, #sk' } : {}),
      Limit: limit,
    }),
  );
  const entries = (out.Items ?? []).map((item) => ({ key: String(item[query.skName]), pk: String(item.pk), sk: String(item.sk) })).filter((e) => e.key.startsWith(query.low));
  return { entries, exhausted: !out.LastEvaluatedKey };
}
