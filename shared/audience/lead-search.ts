import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isKeyString } from '../http/cursor';
import type { Db } from '../store/client';
import { LEAD_SK_PREFIX, leadListPartition, leadPartition, leadShards } from '../store/keys';

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
