import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { encodeCursor } from './cursor';
import { COUNT_WINDOW, type PageRequest } from './paging';

/** A list's query, without the paging fields this module sets. */
export type ListQuery = Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Select' | 'Limit'>;

/** A filtered list reads at most this many entries per entry it skips or shows. */
export const FILTERED_READS_PER_ENTRY = 10;

/** An entry filter of a list query: its expression with the names and values it uses. */
export interface ListFilter {
  readonly expression: string;
  readonly names: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, unknown>>;
}

/** The query of a list over one index partition, newest (highest sort key) first, with an optional filter. */
export function partitionListQuery(db: Db, part: { readonly index: string; readonly pkName: string; readonly pk: string }, filter?: ListFilter): ListQuery {
  return {
    TableName: db.tableName,
    IndexName: part.index,
    KeyConditionExpression: '#pk = :pk',
    ScanIndexForward: false,
    ...(filter ? { FilterExpression: filter.expression } : {}),
    ExpressionAttributeNames: { '#pk': part.pkName, ...filter?.names },
    ExpressionAttributeValues: { ':pk': part.pk, ...filter?.values },
  };
}

/**
 * Counts the entries a query matches from `start`, evaluating at most `cap` of them. `more` is true
 * when the count stopped at its cap with entries left unread (then the count is a lower bound).
 */
export async function countUpTo(db: Db, query: ListQuery, start: Record<string, unknown> | undefined, cap: number): Promise<{ count: number; more: boolean }> {
  let count = 0;
  let read = 0;
  let key = start;
  do {
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...query, Select: 'COUNT', Limit: cap - read, ExclusiveStartKey: key }));
    count += out.Count ?? 0;
    read += out.ScannedCount ?? 0;
    key = out.LastEvaluatedKey;
  } while (key && read < cap);
  return { count, more: key !== undefined };
}

export interface BoundedPage {
  items: Record<string, unknown>[];
  /** Matches before the page (those skipped), on it, and after it up to COUNT_WINDOW entries read. */
  total: number;
  /** True when the reads stopped before the list's end: `total` is then a lower bound. */
  totalIsEstimate: boolean;
  /** Where the next page starts (a start key of this query); undefined at the list's end. */
  next?: Record<string, unknown>;
}

/**
 * One page of a one-partition list, read from the list's start (skipping the page's offset) or from
 * a cursor's start key, and its bounded total. The page and the entries skipped to it are read with
 * Limits that never take an entry past the page, so the next page starts at DynamoDB's
 * LastEvaluatedKey. A filtered query reads at most FILTERED_READS_PER_ENTRY entries per entry
 * skipped or shown; an unfiltered one exactly the offset and the page. Then at most COUNT_WINDOW
 * more entries are counted (Select COUNT) for `total`.
 */
export async function readBoundedPage(db: Db, query: ListQuery, page: PageRequest, from: Record<string, unknown> | undefined): Promise<BoundedPage> {
  const offset = from ? 0 : (page.page - 1) * page.perPage;
  const budget = query.FilterExpression ? (offset + page.perPage) * FILTERED_READS_PER_ENTRY : offset + page.perPage;
  const items: Record<string, unknown>[] = [];
  let skip = offset;
  let read = 0;
  let key = from;
  let exhausted = false;
  while (items.length < page.perPage && read < budget) {
    const need = skip + page.perPage - items.length;
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...query, Limit: Math.min(need, budget - read), ExclusiveStartKey: key }));
    read += out.ScannedCount ?? 0;
    for (const item of out.Items ?? []) {
      if (skip > 0) skip--;
      else items.push(item);
    }
    key = out.LastEvaluatedKey;
    if (!key) {
      exhausted = true;
      break;
    }
  }
  const before = offset - skip;
  if (exhausted || !key) return { items, total: before + items.length, totalIsEstimate: false };
  const after = await countUpTo(db, query, key, COUNT_WINDOW);
  // A page that ended exactly at the list's end leaves a start key with nothing after it.
  const next = after.count > 0 || after.more ? key : undefined;
  return { items, total: before + items.length + after.count, totalIsEstimate: after.more || skip > 0, ...(next ? { next } : {}) };
}

/** The cursor of a page's `next` start key, or null at the list's end (read back by shared/platform/http/cursor.ts `startKeyOfCursor`). */
export const cursorOfStartKey = (next: Record<string, unknown> | undefined): string | null => (next ? encodeCursor(next) : null);

/**
 * The entries of several shard partitions merged newest first: each shard is read page by page
 * (each already newest first), and the newest head among them comes out next. Entries at or above
 * `after` (a cursor's bound, inclusive in the key condition) are left out.
 */
export async function* newestFirst(db: Db, queries: readonly ListQuery[], skName: string, pageSize: number, after?: string): AsyncGenerator<Record<string, unknown>> {
  const shards = queries.map((query) => ({ query, items: [] as Record<string, unknown>[], start: undefined as Record<string, unknown> | undefined, done: false }));
  const fill = async (shard: (typeof shards)[number]) => {
    // A page can come back empty when a filter drops all it read: keep going until items or the end.
    while (shard.items.length === 0 && !shard.done) {
      const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...shard.query, Limit: pageSize, ExclusiveStartKey: shard.start }));
      shard.items.push(...(out.Items ?? []).filter((item) => after === undefined || String(item[skName]) < after));
      shard.start = out.LastEvaluatedKey;
      shard.done = !shard.start;
    }
  };
  await Promise.all(shards.map(fill));
  for (;;) {
    let newest: (typeof shards)[number] | undefined;
    for (const shard of shards) {
      if (shard.items.length > 0 && (!newest || String(shard.items[0][skName]) > String(newest.items[0][skName]))) newest = shard;
    }
    if (!newest) return;
    yield newest.items.shift() as Record<string, unknown>;
    await fill(newest);
  }
}

export interface MergedPage {
  entries: Record<string, unknown>[];
  total: number;
  totalIsEstimate: boolean;
  /** The sort key of the page's last entry, when more entries follow: the next page lies below it. */
  next?: string;
}

/**
 * One page of a list kept in several shard partitions whose sort keys are unique and sort newest
 * last (`<timestamp>#<id>`), merged newest first. `queriesAt(after)` builds the shard queries with
 * `after` as an inclusive upper bound of the sort key, each naming its partition `:pk`. A request reads its offset and page of
 * entries plus a short read-ahead per shard, then counts at most COUNT_WINDOW entries below the
 * page (shared evenly by the shards) for `total`.
 */
export async function readMergedPage(
  db: Db,
  queriesAt: (after?: string) => ListQuery[],
  names: { pkName: string; skName: string },
  page: PageRequest,
  after: string | undefined,
): Promise<MergedPage> {
  const queries = queriesAt(after);
  const offset = after !== undefined ? 0 : (page.page - 1) * page.perPage;
  const readAhead = Math.max(10, Math.ceil((offset + page.perPage) / queries.length) + 1);
  const entries: Record<string, unknown>[] = [];
  let seen = 0;
  for await (const entry of newestFirst(db, queries, names.skName, readAhead, after)) {
    if (seen++ < offset) continue;
    entries.push(entry);
    if (entries.length === page.perPage) break;
  }
  const before = Math.min(seen, offset);
  const last = entries[entries.length - 1];
  if (!last || entries.length < page.perPage) return { entries, total: before + entries.length, totalIsEstimate: false };
  // The bound is inclusive, so the shard holding the last entry counts from just past it (its own key as the start key).
  const lastSk = String(last[names.skName]);
  const perShard = Math.ceil(COUNT_WINDOW / queries.length);
  const startKey = Object.fromEntries([...new Set(['pk', 'sk', names.pkName, names.skName])].map((k) => [k, last[k]]));
  const counts = await Promise.all(
    queriesAt(lastSk).map((q) => countUpTo(db, q, q.ExpressionAttributeValues?.[':pk'] === last[names.pkName] ? startKey : undefined, perShard)),
  );
  const count = counts.reduce((sum, c) => sum + c.count, 0);
  const more = counts.some((c) => c.more);
  return { entries, total: before + entries.length + count, totalIsEstimate: more, ...(count > 0 || more ? { next: lastSk } : {}) };
}
