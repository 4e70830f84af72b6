import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../platform/store/batch-write';
import type { Db } from '../../platform/store/client';
import type { PageRequest } from '../../platform/http/pagination';
import { readMergedPage, type ListQuery } from '../../platform/store/bounded-list';
import { customEventIndexes, customEventKey, customEventListPartition, customEventPartition, emailOfCustomEventPartition, leadShards } from '../../platform/store/keys';
import type { CustomEvent } from './custom-event';
import { batchGetParallel } from './lead-repository';

/** Stores events (unconditional puts: each has its own id), 25 per BatchWrite, in parallel. */
export async function putEvents(db: Db, events: readonly CustomEvent[]): Promise<void> {
  await batchWriteAll(db, events.map((e) => ({ put: { ...customEventKey(e.project_id, e.email, e.timestamp, e.id), ...customEventIndexes(e.project_id, e), ...e } })));
}

/** A time range on `<timestamp>#<id>` sort keys, both ends inclusive. */
export interface TimeRange {
  since?: string;
  until?: string;
}

// '#' sorts before every character of an id and '~' after: `until` includes its own second.
const rangeCondition = (sk: string, range: TimeRange, upper?: string) => {
  const to = `${range.until ?? '9999'}~`;
  const values: Record<string, string> = { ':from': range.since ?? '0', ':to': upper !== undefined && upper < to ? upper : to };
  return { condition: `${sk} BETWEEN :from AND :to`, values };
};

/** The partitions a list reads: one lead's events, or every shard of an event name, or every shard of the project. */
function partitionsFor(projectId: string, filter: { email?: string; event?: string }) {
  if (filter.email) return [{ index: undefined, pkName: 'pk', skName: 'sk', pk: customEventPartition(projectId, filter.email) }];
  if (filter.event) return leadShards().map((s) => customEventListPartition.byName(projectId, filter.event!, s));
  return leadShards().map((s) => customEventListPartition.project(projectId, s));
}

/** The query of one partition of a list, newest first; `upper` (a page's bound, inclusive) lowers `until`. */
function queryOf(db: Db, part: { index?: string; pkName: string; skName: string; pk: string }, range: TimeRange, event?: string, byEmail?: boolean, upper?: string): ListQuery {
  const { condition, values } = rangeCondition('#sk', range, upper);
  const filterEvent = event !== undefined && byEmail;
  return {
    TableName: db.tableName,
    IndexName: part.index,
    KeyConditionExpression: `#pk = :pk AND ${condition}`,
    ExpressionAttributeNames: { '#pk': part.pkName, '#sk': part.skName, ...(filterEvent ? { '#event': 'event' } : {}) },
    ExpressionAttributeValues: { ':pk': part.pk, ...values, ...(filterEvent ? { ':event': event } : {}) },
    ...(filterEvent ? { FilterExpression: '#event = :event' } : {}),
    ScanIndexForward: false,
  };
}

/**
 * A page of events newest first: by email (one partition; `event` filtered in DynamoDB), by event
 * name or for the whole project (every shard of its index, merged by timestamp), from the list's
 * start or below a cursor's `after`, with its bounded total (readMergedPage).
 */
export async function pageEvents(
  db: Db,
  projectId: string,
  filter: { email?: string; event?: string } & TimeRange,
  page: PageRequest,
  after: string | undefined,
): Promise<{ events: CustomEvent[]; total: number; totalIsEstimate: boolean; next?: string }> {
  const parts = partitionsFor(projectId, filter);
  const queriesAt = (upper?: string) => parts.map((part) => queryOf(db, part, filter, filter.event, Boolean(filter.email), upper));
  const { entries, ...listed } = await readMergedPage(db, queriesAt, parts[0], page, after);
  const items = filter.email ? entries : await readByKeys(db, entries);
  return { events: items.map(eventFromItem), ...listed };
}

async function readByKeys(db: Db, keys: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const items = await batchGetParallel(db, keys.map((k) => ({ pk: k.pk, sk: k.sk })));
  const byKey = new Map(items.map((i) => [`${i.pk}|${i.sk}`, i]));
  return keys.flatMap((k) => (byKey.has(`${k.pk}|${k.sk}`) ? [byKey.get(`${k.pk}|${k.sk}`)!] : []));
}

function eventFromItem(item: Record<string, unknown>): CustomEvent {
  const { id, project_id, email, event, properties, timestamp, recipient_id, created_at } = item as unknown as CustomEvent;
  return { id, project_id, email, event, properties: properties ?? {}, timestamp, recipient_id, created_at };
}

/** The emails of one lead shard that did `event` since `since` (ever when absent): a dynamic segment's event condition, shard by shard. */
export async function emailsWithEvent(db: Db, projectId: string, event: string, shard: number, since: string | undefined): Promise<Set<string>> {
  const part = customEventListPartition.byName(projectId, event, shard);
  const emails = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...queryOf(db, part, { since }), ExclusiveStartKey: start }));
    for (const item of out.Items ?? []) emails.add(emailOfCustomEventPartition(projectId, String(item.pk)));
    start = out.LastEvaluatedKey;
  } while (start);
  return emails;
}

/**
 * Whether one lead (by email) did `event` since `since` (ever when absent): its own partition,
 * newest first, filtered on the name, stopping at the first match (an automation's filter, one lead at a time).
 */
export async function leadDidEvent(db: Db, projectId: string, email: string, event: string, since: string | undefined): Promise<boolean> {
  const part = { index: undefined, pkName: 'pk', skName: 'sk', pk: customEventPartition(projectId, email) };
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...queryOf(db, part, { since }, event, true), ExclusiveStartKey: start, Limit: 100 }));
    if ((out.Items ?? []).length > 0) return true;
    start = out.LastEvaluatedKey;
  } while (start);
  return false;
}
