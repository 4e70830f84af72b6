import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { putIfAbsent } from '../../platform/store/aggregate';
import { stripKeys, type Db } from '../../platform/store/client';
import { batchGetAll } from '../../platform/store/batch-get';
import type { BoundedTotal } from '../../platform/http/pagination';
import { cursorOfStartKey, readBoundedPage } from '../../platform/store/bounded-list';
import { startKeyOfCursor } from '../../platform/http/cursor';
import { SUPPRESSION_SK_PREFIX, projectKey, suppressionKey } from '../../platform/store/keys';

/** Why an address is suppressed. */
export type SuppressionReason = 'bounce' | 'complaint' | 'unsubscribe' | 'manual';

/** An address on a project's suppression list (fields of part 2). */
export interface SuppressionEntry {
  project_id: string;
  email: string;
  reason: SuppressionReason;
  source: string;
  description?: string | null;
  bounce_type?: string | null;
  bounce_subtype?: string | null;
  complaint_feedback_type?: string | null;
  suppressed_at: string;
}

/** The entries among `emails` that the project suppresses, keyed by lowercased address. */
export async function findSuppressed(db: Db, projectId: string, emails: readonly string[]): Promise<Map<string, SuppressionEntry>> {
  const keys = emails.map((e) => ({ ...suppressionKey(projectId, e) }));
  const found = new Map<string, SuppressionEntry>();
  for (const item of await batchGetAll(db, keys)) {
    const entry = stripKeys<SuppressionEntry>(item);
    found.set(entry.email, entry);
  }
  return found;
}

/** Adds or replaces a suppression entry. */
export async function putSuppression(db: Db, entry: SuppressionEntry): Promise<void> {
  await db.doc.send(
    new PutCommand({ TableName: db.tableName, Item: { ...suppressionKey(entry.project_id, entry.email), ...entry, email: entry.email.toLowerCase() } }),
  );
}

/** Adds an entry unless the address is already suppressed; true when this call added it. */
export function addSuppressionIfAbsent(db: Db, entry: SuppressionEntry): Promise<boolean> {
  return putIfAbsent(db, { ...suppressionKey(entry.project_id, entry.email), ...entry, email: entry.email.toLowerCase() });
}

/** Removes an address; returns the entry it removed, or undefined when it was not suppressed. */
export async function deleteSuppression(db: Db, projectId: string, email: string): Promise<SuppressionEntry | undefined> {
  const out = await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: suppressionKey(projectId, email), ReturnValues: 'ALL_OLD' }));
  return out.Attributes ? stripKeys<SuppressionEntry>(out.Attributes) : undefined;
}

/** One suppression entry, or undefined. */
export async function getSuppression(db: Db, projectId: string, email: string): Promise<SuppressionEntry | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: suppressionKey(projectId, email) }));
  return out.Item ? stripKeys<SuppressionEntry>(out.Item) : undefined;
}

/**
 * One page of a project's list, ordered by address, from the list's start (offset pages) or from a
 * cursor's start key, with its bounded total (shared/platform/store/bounded-list.ts): a request reads at most
 * its offset and page and COUNT_WINDOW entries after it; a `reason` filter is applied in DynamoDB,
 * reading at most ten entries per entry skipped or shown. An address `prefix` (lowercased) narrows
 * the key condition itself, so a search reads only the addresses it shows and counts.
 */
export async function pageSuppressions(
  db: Db,
  projectId: string,
  page: { page: number; perPage: number; reason?: string; prefix?: string },
  cursor: string | undefined,
): Promise<{ entries: SuppressionEntry[] } & BoundedTotal> {
  const pk = projectKey(projectId).pk;
  const skPrefix = `${SUPPRESSION_SK_PREFIX}${page.prefix ?? ''}`;
  const base = {
    TableName: db.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ...(page.reason ? { ':r': page.reason } : {}) },
    ...(page.reason ? { FilterExpression: '#reason = :r', ExpressionAttributeNames: { '#reason': 'reason' } } : {}),
  };
  const from = startKeyOfCursor(cursor, ['pk', 'sk'], (k) => k.pk === pk && k.sk.startsWith(skPrefix));
  const listed = await readBoundedPage(db, base, page, from);
  return { entries: listed.items.map((item) => stripKeys<SuppressionEntry>(item)), total: listed.total, totalIsEstimate: listed.totalIsEstimate, nextCursor: cursorOfStartKey(listed.next) };
}
