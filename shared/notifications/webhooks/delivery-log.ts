import { gunzipSync, gzipSync } from 'node:zlib';
import type { ServiceEvent } from '../../platform/core/events';
import type { PostResult } from '../../platform/adapters/webhook-poster';
import { FILTERED_READS_PER_ENTRY, newestFirst, readMergedPage } from '../../platform/store/bounded-list';
import { decodeCursor, encodeCursor, isStringRecord } from '../../platform/http/cursor';
import type { BoundedTotal, PageRequest } from '../../platform/http/pagination';
import { ttlAfterDays, type Db } from '../../platform/store/client';
import { webhookDeliveryKey, webhookDeliveryPartitions } from '../../platform/store/keys';
import { deliveryLogShardQuery, getDeliveryLogItem, putDeliveryLogItem } from './delivery-log-repository';
import type { WebhookJob, WebhookSlot } from './webhook-job';

/**
 * Days a delivery attempt stays in the project's log, and a payload stays redeliverable. Long enough
 * to look into a weekend's "callback failed"; short enough that the log is a few days of writes.
 */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 3;

/** The most of a response body the log keeps (UTF-8 bytes, before sanitizing). */
export const RESPONSE_EXCERPT_BYTES = 512;

/** An item of at most this many bytes costs one write unit: the log's entries and kept payloads stay within it. */
export const ONE_WRITE_UNIT_BYTES = 1024;

/** The most of the poster's error text the log keeps. */
const ERROR_CHARS = 200;

/** How an attempt that got no 2xx went wrong: a status, a redirect, or no answer at all. */
export type WebhookErrorKind = 'http_status' | 'redirect' | 'timeout' | 'address_refused' | 'invalid_url' | 'network';

/** One delivery attempt as the API shows it. */
export interface WebhookDeliveryAttempt {
  /** The entry's id (its sort key, encoded): what a redelivery names. */
  id: string;
  delivery_id: string;
  event: string;
  activity_id: string | null;
  url: string;
  slot: WebhookSlot;
  attempt: number;
  max_attempts: number;
  outcome: 'succeeded' | 'failed';
  status: number | null;
  error_kind: WebhookErrorKind | null;
  error: string | null;
  duration_ms: number;
  response_excerpt: string;
  attempted_at: string;
  /** The delivery this one redelivers (POST .../redeliver), or null. */
  redelivery_of: string | null;
  /** Whether the entry holds the payload, so that it can be redelivered (while the log keeps it). */
  redeliverable: boolean;
}

/** An attempt as the worker writes it: the id comes from its key, `redeliverable` from the payload it holds. */
export type LoggedAttempt = Omit<WebhookDeliveryAttempt, 'id' | 'redeliverable'>;

/** Prefix of an entry id: `whd_` and the base64url of the entry's sort key. */
const ENTRY_ID_PREFIX = 'whd_';

/** The id of the log entry with sort key `sk`. */
export const entryIdOf = (sk: string): string => `${ENTRY_ID_PREFIX}${Buffer.from(sk, 'utf8').toString('base64url')}`;

/** A log sort key: `<ISO instant>#<delivery id>#<attempt>`. */
const LOG_SORT_KEY = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z)#([^#]{1,200})#(\d{2})$/;

/** The sort key and delivery id an entry id names, or undefined for anything that is not an entry id. */
export function sortKeyOfEntryId(id: string): { sk: string; deliveryId: string } | undefined {
  if (!id.startsWith(ENTRY_ID_PREFIX) || id.length > 400 || !/^[A-Za-z0-9_-]+$/.test(id.slice(ENTRY_ID_PREFIX.length))) return undefined;
  const sk = Buffer.from(id.slice(ENTRY_ID_PREFIX.length), 'base64url').toString('utf8');
  const match = LOG_SORT_KEY.exec(sk);
  return match ? { sk, deliveryId: match[2] } : undefined;
}

/** The kind of error of a failed POST, from the poster's result. */
export function errorKindOf(result: PostResult): WebhookErrorKind | null {
  if (result.ok) return null;
  if (result.status !== undefined) return result.status >= 300 && result.status < 400 ? 'redirect' : 'http_status';
  const error = result.error ?? '';
  if (error.startsWith('Timed out')) return 'timeout';
  if (error.startsWith('Refusing to connect')) return 'address_refused';
  if (error === 'Invalid URL' || error.startsWith('Unsupported URL scheme')) return 'invalid_url';
  return 'network';
}

/**
 * A response body's first bytes as safe text: decoded as UTF-8 (a character cut at the end is
 * dropped, invalid bytes become U+FFFD), control characters other than tab and newline replaced by a
 * space, so that a binary or hostile answer shows as harmless text in a console.
 */
export function sanitizeExcerpt(head: Buffer | undefined, maxBytes = RESPONSE_EXCERPT_BYTES): string {
  if (!head || head.length === 0) return '';
  let bytes = head.subarray(0, maxBytes);
  // Drop a multi-byte character the cut split: back up to the start of the last character if it is incomplete.
  let start = bytes.length - 1;
  while (start > 0 && start > bytes.length - 4 && (bytes[start] & 0xc0) === 0x80) start--;
  const lead = bytes[start];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (start + need > bytes.length) bytes = bytes.subarray(0, start);
  // eslint-disable-next-line no-control-regex
  return bytes.toString('utf8').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

/** DynamoDB's size of an item (attribute names plus values), as it bills writes. */
export function itemBytes(item: Record<string, unknown>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += Buffer.byteLength(name);
    if (typeof value === 'string') size += Buffer.byteLength(value);
    else if (typeof value === 'number') size += Math.ceil(String(Math.abs(value)).replace(/[.-]/g, '').length / 2) + 1;
    else if (value instanceof Uint8Array) size += value.length;
    else size += 1; // boolean, null
  }
  return size;
}

/**
 * The log entry of one attempt, within one write unit. It holds the delivery's payload, gzipped, so
 * that the attempt can be redelivered; the payload comes before the excerpt: the excerpt is cut to
 * the room left (a typical event leaves about 300 of its 512 bytes). A payload that does not fit even
 * then (a reply with its text, say) is left out: that attempt cannot be redelivered. A URL near 2,000
 * characters is cut last, with `…`.
 */
export function attemptItem(job: WebhookJob, attempt: LoggedAttempt, ttl: number): Record<string, unknown> {
  const { activity_id, redelivery_of, response_excerpt, ...always } = attempt;
  const item: Record<string, unknown> = {
    ...webhookDeliveryKey(job.project_id, job.delivery_id, attempt.attempted_at, attempt.attempt),
    ...always,
    // Absent rather than null: an absent attribute costs nothing.
    ...(activity_id ? { activity_id } : {}),
    ...(redelivery_of ? { redelivery_of } : {}),
    ttl,
    response_excerpt: '',
  };
  const payload = gzipSync(JSON.stringify(job.event));
  if (itemBytes({ ...item, payload_gz: payload }) <= ONE_WRITE_UNIT_BYTES) item.payload_gz = payload;
  const room = ONE_WRITE_UNIT_BYTES - itemBytes(item);
  if (room > 0) item.response_excerpt = sanitizeExcerpt(Buffer.from(response_excerpt, 'utf8'), Math.min(room, RESPONSE_EXCERPT_BYTES));
  const over = itemBytes(item) - ONE_WRITE_UNIT_BYTES;
  // `…` is 3 bytes in UTF-8.
  if (over > 0) item.url = `${attempt.url.slice(0, Math.max(0, attempt.url.length - over - 3))}…`;
  return item;
}

/** What one POST came to, as the log's entry for it. */
export function attemptEntry(job: WebhookJob, attempt: number, result: PostResult, attemptedAt: Date, durationMs: number): LoggedAttempt {
  const activityId = job.event.data?.activity_id;
  return {
    delivery_id: job.delivery_id,
    event: job.event.event,
    activity_id: typeof activityId === 'string' ? activityId : null,
    url: job.url,
    slot: job.slot,
    attempt,
    max_attempts: job.max_attempts,
    outcome: result.ok ? 'succeeded' : 'failed',
    status: result.status ?? null,
    error_kind: errorKindOf(result),
    error: result.ok ? null : (result.error ?? 'Failed').slice(0, ERROR_CHARS),
    duration_ms: Math.max(0, Math.round(durationMs)),
    response_excerpt: sanitizeExcerpt(result.responseHead),
    attempted_at: attemptedAt.toISOString(),
    redelivery_of: job.redelivery_of ?? null,
  };
}

/** Logs one attempt: one item of at most 1 KB (1 write unit) that expires after WEBHOOK_DELIVERY_RETENTION_DAYS. */
export async function logDeliveryAttempt(db: Db, job: WebhookJob, attempt: LoggedAttempt, now: Date): Promise<void> {
  await putDeliveryLogItem(db, attemptItem(job, attempt, ttlAfterDays(now, WEBHOOK_DELIVERY_RETENTION_DAYS)));
}

/** A payload kept for redelivery: which delivery it was, where it went and what it was. */
export interface KeptPayload {
  delivery_id: string;
  url: string;
  slot: WebhookSlot;
  max_attempts: number;
  event: ServiceEvent;
}

/**
 * The payload an entry of `projectId`'s log holds, or undefined when there is none: not an entry
 * id, another project's entry (the project is part of the key, so it is never read), expired (TTL
 * deletion lags, so the expiry is checked here too), or a payload too big to keep.
 */
export async function keptPayload(db: Db, projectId: string, entryId: string, now: Date): Promise<KeptPayload | undefined> {
  const named = sortKeyOfEntryId(entryId);
  if (!named) return undefined;
  const item = await getDeliveryLogItem(db, projectId, named.deliveryId, named.sk);
  if (!item || !(item.payload_gz instanceof Uint8Array) || typeof item.ttl !== 'number' || item.ttl * 1000 <= now.getTime()) return undefined;
  return {
    delivery_id: item.delivery_id as string,
    url: item.url as string,
    slot: item.slot as WebhookSlot,
    max_attempts: item.max_attempts as number,
    event: JSON.parse(gunzipSync(item.payload_gz).toString('utf8')) as ServiceEvent,
  };
}

/** Filters of the delivery log list. */
export interface DeliveryFilters {
  event?: string;
  outcome?: 'succeeded' | 'failed';
  /** The mail whose events were delivered (lowercase). */
  activityId?: string;
}

/** Where a page of the log starts: below the sort key of the last entry shown (or read). */
interface LogPosition {
  after: string;
}

/** A log sort key; a cursor naming anything else is refused. */
const isLogSortKey = (value: string): boolean => LOG_SORT_KEY.test(value);

/** The position a log cursor names: one sort key of this log's shape, nothing else. */
function logPosition(cursor: string | undefined): LogPosition | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursor(cursor, (v): v is LogPosition => isStringRecord(v, ['after']) && isLogSortKey(v.after));
}

/** A stored entry as the API shows it (absent optional attributes as null). */
function fromItem(item: Record<string, unknown>): WebhookDeliveryAttempt {
  return {
    id: entryIdOf(item.sk as string),
    delivery_id: item.delivery_id as string,
    event: item.event as string,
    activity_id: (item.activity_id as string | undefined) ?? null,
    url: item.url as string,
    slot: item.slot as WebhookSlot,
    attempt: item.attempt as number,
    max_attempts: item.max_attempts as number,
    outcome: item.outcome as 'succeeded' | 'failed',
    status: (item.status as number | null | undefined) ?? null,
    error_kind: (item.error_kind as WebhookErrorKind | null | undefined) ?? null,
    error: (item.error as string | null | undefined) ?? null,
    duration_ms: item.duration_ms as number,
    response_excerpt: (item.response_excerpt as string | undefined) ?? '',
    attempted_at: item.attempted_at as string,
    redelivery_of: (item.redelivery_of as string | undefined) ?? null,
    redeliverable: item.payload_gz !== undefined,
  };
}

/**
 * One page of a project's delivery log, newest attempt first, over its 32 shards merged. Unfiltered:
 * readMergedPage (the page, a short read-ahead per shard, and a bounded count). Filtered by event,
 * outcome or activity: the merged log is walked and matched here, reading at most FILTERED_READS_PER_ENTRY
 * entries per entry skipped or shown; when that budget ends first, the page is short and its cursor
 * reads on from the last entry read.
 */
export async function pageDeliveryLog(
  db: Db,
  projectId: string,
  filters: DeliveryFilters,
  page: PageRequest,
  cursor: string | undefined,
): Promise<{ entries: WebhookDeliveryAttempt[] } & BoundedTotal> {
  const from = logPosition(cursor);
  const pks = webhookDeliveryPartitions(projectId);
  const names = { pkName: 'pk', skName: 'sk' };
  if (!filters.event && !filters.outcome && !filters.activityId) {
    const listed = await readMergedPage(db, (after) => pks.map((pk) => deliveryLogShardQuery(db, pk, after)), names, page, from?.after);
    return {
      entries: listed.entries.map(fromItem),
      total: listed.total,
      totalIsEstimate: listed.totalIsEstimate,
      nextCursor: listed.next ? encodeCursor({ after: listed.next } satisfies LogPosition) : null,
    };
  }

  const offset = from ? 0 : (page.page - 1) * page.perPage;
  const budget = (offset + page.perPage) * FILTERED_READS_PER_ENTRY;
  const readAhead = Math.max(10, Math.ceil(page.perPage / pks.length) + 1);
  const matches = (item: Record<string, unknown>) =>
    (!filters.event || item.event === filters.event) && (!filters.outcome || item.outcome === filters.outcome) && (!filters.activityId || item.activity_id === filters.activityId);
  const entries: WebhookDeliveryAttempt[] = [];
  let matched = 0;
  let read = 0;
  let last: string | undefined;
  let more = false;
  for await (const item of newestFirst(db, pks.map((pk) => deliveryLogShardQuery(db, pk, from?.after)), 'sk', readAhead, from?.after)) {
    if (entries.length === page.perPage || read >= budget) {
      more = true;
      break;
    }
    read++;
    last = item.sk as string;
    if (matches(item) && matched++ >= offset) entries.push(fromItem(item));
  }
  const total = Math.min(matched, offset) + entries.length + (more ? 1 : 0);
  return { entries, total, totalIsEstimate: more, nextCursor: more && last ? encodeCursor({ after: last } satisfies LogPosition) : null };
}
