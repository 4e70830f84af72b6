import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { FILTERED_READS_PER_ENTRY, countUpTo, type ListQuery } from './bounded-list';
import type { Db } from './client';
import { encodeCursor } from './cursor';
import type { ShardedListPartitions } from './keys';
import { COUNT_WINDOW, type BoundedTotal, type PageRequest } from './paging';

/** Entries are read (and their rows loaded) this many at a time when a filter is checked on the rows. */
const LOAD_CHUNK = 100;

/** One page of a list kept in the shard partitions of a keys-only index, its rows read by key. */
export interface ShardedListRequest<T> {
  readonly partitions: ShardedListPartitions;
  /** Lowest sort key first (soonest), else highest first (newest). */
  readonly ascending: boolean;
  /** Inclusive bounds of the sort key (a time window). */
  readonly lower?: string;
  readonly upper?: string;
  readonly page: PageRequest;
  /** The sort key of the previous page's last entry (a cursor): the page starts just past it. */
  readonly after?: string;
  /** The rows of index entries, in their order; undefined for a row gone meanwhile (left out). */
  readonly load: (entries: readonly Record<string, unknown>[]) => Promise<(T | undefined)[]>;
  /** A filter the index does not serve, checked on the rows: the reads are then budgeted. */
  readonly keep?: (row: T) => boolean;
}

export interface ShardedPage<T> extends BoundedTotal {
  rows: T[];
}

/** The cursor of the position `after` (read back by shared/platform/http/cursor.ts `positionOfCursor`). */
const cursorOf = (after: string): string => encodeCursor({ after });

/**
 * One page of a sharded list, merged in sort-key order across its shards. Without `keep`, a request
 * reads its offset and page of index entries (plus a short read-ahead per shard), loads only the
 * page's rows, and counts at most COUNT_WINDOW entries past the page (shared by the shards) for
 * `total`. With `keep`, it loads rows a hundred at a time and reads at most FILTERED_READS_PER_ENTRY
 * entries per entry skipped or shown; `total` then only says whether more may follow.
 */
export async function readShardedPage<T>(db: Db, request: ShardedListRequest<T>): Promise<ShardedPage<T>> {
  const { page, partitions, keep } = request;
  const offset = request.after !== undefined ? 0 : (page.page - 1) * page.perPage;
  const readAhead = Math.max(10, Math.ceil((offset + page.perPage) / partitions.pks.length) + 1);
  const entries = ordered(db, request, readAhead);
  return keep ? readFiltered(request, keep, entries, offset) : readAll(db, request, entries, offset);
}

/** Every entry the index serves is a row of the list: skip the offset unread, load the page, count past it. */
async function readAll<T>(db: Db, request: ShardedListRequest<T>, entries: AsyncGenerator<Record<string, unknown>>, offset: number): Promise<ShardedPage<T>> {
  const { page, partitions } = request;
  const shown: Record<string, unknown>[] = [];
  let seen = 0;
  for await (const entry of entries) {
    if (seen++ < offset) continue;
    shown.push(entry);
    if (shown.length === page.perPage) break;
  }
  const rows = (await request.load(shown)).filter((row): row is T => row !== undefined);
  const before = Math.min(seen, offset);
  const last = shown[shown.length - 1];
  if (!last || shown.length < page.perPage) return { rows, total: before + shown.length, totalIsEstimate: false, nextCursor: null };
  const lastSk = String(last[partitions.skName]);
  // The shard holding the last entry counts from just past it (its own key as the start key); the others from the bound.
  const startKey = Object.fromEntries([...new Set(['pk', 'sk', partitions.pkName, partitions.skName])].map((k) => [k, last[k]]));
  const perShard = Math.ceil(COUNT_WINDOW / partitions.pks.length);
  const counts = await Promise.all(partitions.pks.map((pk) => countUpTo(db, shardQuery(db, request, pk, lastSk), pk === last[partitions.pkName] ? startKey : undefined, perShard)));
  const count = counts.reduce((sum, c) => sum + c.count, 0);
  const more = counts.some((c) => c.more);
  return { rows, total: before + shown.length + count, totalIsEstimate: more, nextCursor: count > 0 || more ? cursorOf(lastSk) : null };
}

/** A filter checked on the rows: load them a hundred at a time, keep the matches, within the budget. */
async function readFiltered<T>(
  request: ShardedListRequest<T>,
  keep: (row: T) => boolean,
  entries: AsyncGenerator<Record<string, unknown>>,
  offset: number,
): Promise<ShardedPage<T>> {
  const { page, partitions } = request;
  const budget = (offset + page.perPage) * FILTERED_READS_PER_ENTRY;
  const rows: T[] = [];
  let matched = 0;
  let read = 0;
  let last: string | undefined;
  let more = false;
  let chunk: Record<string, unknown>[] = [];
  const look = async () => {
    const loaded = await request.load(chunk);
    for (let i = 0; i < chunk.length; i++) {
      if (rows.length === page.perPage) {
        more = true;
        break;
      }
      last = String(chunk[i][partitions.skName]);
      const row = loaded[i];
      if (row !== undefined && keep(row) && matched++ >= offset) rows.push(row);
    }
    chunk = [];
  };
  for await (const entry of entries) {
    if (rows.length === page.perPage || read >= budget) {
      more = true;
      break;
    }
    chunk.push(entry);
    read++;
    if (chunk.length === LOAD_CHUNK || read >= budget) await look();
  }
  if (chunk.length > 0) await look();
  const total = Math.min(matched, offset) + rows.length + (more ? 1 : 0);
  return { rows, total, totalIsEstimate: more, nextCursor: more && last !== undefined ? cursorOf(last) : null };
}

/** The query of one shard, in the list's order, within its bounds and at most up to `after` (inclusive; the entry itself is dropped by the reader). */
function shardQuery<T>(db: Db, request: ShardedListRequest<T>, pk: string, after: string | undefined): ListQuery {
  let { lower, upper } = request;
  if (after !== undefined) {
    if (request.ascending) lower = lower === undefined || after > lower ? after : lower;
    else upper = upper === undefined || after < upper ? after : upper;
  }
  const range = lower !== undefined && upper !== undefined ? ' AND #sk BETWEEN :lower AND :upper' : lower !== undefined ? ' AND #sk >= :lower' : upper !== undefined ? ' AND #sk <= :upper' : '';
  return {
    TableName: db.tableName,
    IndexName: request.partitions.index,
    KeyConditionExpression: `#pk = :pk${range}`,
    ScanIndexForward: request.ascending,
    ExpressionAttributeNames: { '#pk': request.partitions.pkName, ...(range ? { '#sk': request.partitions.skName } : {}) },
    ExpressionAttributeValues: { ':pk': pk, ...(lower !== undefined ? { ':lower': lower } : {}), ...(upper !== undefined ? { ':upper': upper } : {}) },
  };
}

/**
 * The entries of every shard merged in the list's order: each shard is read page by page (each
 * already in order), and the first head among them comes out next. The entry at `after` is left out.
 */
async function* ordered<T>(db: Db, request: ShardedListRequest<T>, pageSize: number): AsyncGenerator<Record<string, unknown>> {
  const { skName } = request.partitions;
  const shards = request.partitions.pks.map((pk) => ({
    query: shardQuery(db, request, pk, request.after),
    items: [] as Record<string, unknown>[],
    start: undefined as Record<string, unknown> | undefined,
    done: false,
  }));
  const fill = async (shard: (typeof shards)[number]) => {
    while (shard.items.length === 0 && !shard.done) {
      const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...shard.query, Limit: pageSize, ExclusiveStartKey: shard.start }));
      shard.items.push(...(out.Items ?? []).filter((item) => String(item[skName]) !== request.after));
      shard.start = out.LastEvaluatedKey;
      shard.done = !shard.start;
    }
  };
  const first = (a: string, b: string) => (request.ascending ? a < b : a > b);
  await Promise.all(shards.map(fill));
  for (;;) {
    let head: (typeof shards)[number] | undefined;
    for (const shard of shards) {
      if (shard.items.length > 0 && (!head || first(String(shard.items[0][skName]), String(head.items[0][skName])))) head = shard;
    }
    if (!head) return;
    yield head.items.shift() as Record<string, unknown>;
    await fill(head);
  }
}
