import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { COUNT_WINDOW, type PageRequest } from '../http/pagination';
import { decodeCursor, encodeCursor, isStringRecord } from '../http/cursor';
import type { Db } from './client';

/** A list's query, without the paging fields this module sets. */
export type ListQuery = Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Select' | 'Limit'>;

/** A filtered list reads at most this many entries per entry it skips or shows. */
export const FILTERED_READS_PER_ENTRY = 10;

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

/**
 * The start key a list cursor names: exactly the key attributes `names`, each a key string, and
 * accepted by `within` (that it is an entry of this very list), else 400 `cursor is not valid for this list`.
 */
export function startKeyOfCursor(cursor: string | undefined, names: readonly string[], within: (key: Record<string, string>) => boolean): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursor(cursor, (v): v is Record<string, string> => isStringRecord(v, names) && within(v));
}

/** The cursor of a page's `next` start key, or null at the list's end. */
export const cursorOfStartKey = (next: Record<string, unknown> | undefined): string | null => (next ? encodeCursor(next) : null);
