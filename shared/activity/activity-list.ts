import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import * as z from '../zod';
import { badRequest } from '../errors';
import { parseRequest } from '../validate';
import type { PageRequest } from '../http/pagination';
import { isDomainName } from '../mail/addresses';
import type { Db } from '../store/client';
import { batchGetAll } from '../store/batch-get';
import { countAll } from '../store/query';
import { RARE_STATUSES, activityKey, activityListPartition, type ActivityListPartition } from '../store/keys';
import type { Activity, ActivityStatus } from './activity';
import { fromItem } from './activity-repository';

const STATUSES: readonly ActivityStatus[] = ['queued', 'retrying', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'cancelled'];

export interface ActivityFilters {
  email?: string;
  senderDomain?: string;
  status?: ActivityStatus;
  automationRunId?: string;
  campaignId?: string;
  since?: string;
  until?: string;
}

const INVALID_SENDER_DOMAIN = 'INVALID_SENDER_DOMAIN';
/** `Mail.Example.com` or `@example.com` as the index keeps it. */
const senderDomainOf = (value: string): string => value.trim().toLowerCase().replace(/^@/, '');
/** A text `new Date` reads (ISO 8601 and the forms JavaScript accepts, as before). */
const isDate = (value: string): boolean => !Number.isNaN(new Date(value).getTime());
const timestamp = (name: string) => z.optional(z.string().check(z.refine((v) => v === '' || isDate(v), `${name} must be an ISO 8601 timestamp`)));

/**
 * The query of `GET /v1/activity` (4.11), fields in the order they are checked; an empty value
 * filters nothing. page and per_page are read by shared/http/pagination.
 */
export const activityQuerySchema = z
  .object({
    email: z.optional(z.string()),
    sender_domain: z.optional(z.string().check(z.refine((v) => v === '' || isDomainName(senderDomainOf(v)), INVALID_SENDER_DOMAIN))),
    status: z.optional(z.string().check(z.refine((v) => v === '' || STATUSES.includes(v as ActivityStatus), `status must be one of ${STATUSES.join(', ')}`))),
    automation_run_id: z.optional(z.string()),
    campaign_id: z.optional(z.string()),
    since: timestamp('since'),
    until: timestamp('until'),
  })
  .check(
    z.refine((q) => !(q.since && q.until && new Date(q.since) > new Date(q.until)), {
      message: 'since must not be after until',
      // After every field's own problem: only two good timestamps can be out of order.
      when: (payload) => payload.issues.length === 0,
    }),
  );

/** Reads the filters of `GET /v1/activity` (4.11); an invalid sender domain is INVALID_SENDER_DOMAIN. */
export function parseActivityFilters(query: Readonly<Record<string, string | undefined>>): ActivityFilters {
  const q = parseRequest(activityQuerySchema, query, (message) =>
    message === INVALID_SENDER_DOMAIN ? badRequest(message, message, { sender_domain: query.sender_domain }) : badRequest(message),
  );
  const filters: ActivityFilters = {};
  if (q.email) filters.email = q.email.trim().toLowerCase();
  if (q.sender_domain) filters.senderDomain = senderDomainOf(q.sender_domain);
  if (q.status) filters.status = q.status as ActivityStatus;
  if (q.automation_run_id) filters.automationRunId = q.automation_run_id;
  if (q.campaign_id) filters.campaignId = q.campaign_id;
  if (q.since) filters.since = new Date(q.since).toISOString();
  if (q.until) filters.until = new Date(q.until).toISOString();
  return filters;
}

/**
 * `GET /v1/activity`, newest first. The most selective index serves the query (recipient, campaign
 * or run, a rare status, else the project's list), bounded by `since`/`until` on the creation time.
 * Every index is sharded (keys.ts), so its shard partitions are read side by side and merged newest
 * first. What the index cannot answer (sender domain, a common status, a second filter) is checked
 * on the records themselves. Without such a remainder a page reads only its own records; the total
 * is a count of the index entries (about 40 per read unit).
 */
export async function listActivity(db: Db, projectId: string, filters: ActivityFilters, page: PageRequest): Promise<{ data: Activity[]; total: number }> {
  const { partition, remainder } = choosePartition(projectId, filters);
  const queries = partition.pks.map((pk) => shardQuery(db, partition, pk, filters));
  const offset = (page.page - 1) * page.perPage;

  if (!remainder) {
    const counts = await Promise.all(queries.map((q) => countAll(db, q)));
    const total = counts.reduce((sum, n) => sum + n, 0);
    if (offset >= total) return { data: [], total };
    const wanted: string[] = [];
    let seen = 0;
    for await (const entry of newestFirst(db, queries, partition.skName, Math.min(offset + page.perPage, 1000))) {
      if (seen++ < offset) continue;
      wanted.push(entry.pk as string);
      if (wanted.length === page.perPage) break;
    }
    return { data: await readRecords(db, wanted), total };
  }

  // A remainder filter: walk the range newest first, reading records a hundred at a time, and keep the matches.
  const data: Activity[] = [];
  let total = 0;
  let chunk: string[] = [];
  const take = async () => {
    for (const activity of await readRecords(db, chunk)) {
      if (!remainder(activity)) continue;
      if (total >= offset && data.length < page.perPage) data.push(activity);
      total++;
    }
    chunk = [];
  };
  for await (const entry of newestFirst(db, queries, partition.skName, 100)) {
    chunk.push(entry.pk as string);
    if (chunk.length === 100) await take();
  }
  await take();
  return { data, total };
}

/** The query of one shard partition, newest first, bounded by `since`/`until`. */
function shardQuery(db: Db, partition: ActivityListPartition, pk: string, filters: ActivityFilters) {
  return {
    TableName: db.tableName,
    IndexName: partition.index,
    KeyConditionExpression: `#pk = :pk${rangeCondition(filters)}`,
    ...(partition.filter ? { FilterExpression: partition.filter.expression } : {}),
    ExpressionAttributeNames: { '#pk': partition.pkName, ...(filters.since || filters.until ? { '#sk': partition.skName } : {}), ...partition.filter?.names },
    ExpressionAttributeValues: {
      ':pk': pk,
      ...(filters.since ? { ':since': filters.since } : {}),
      ...(filters.until ? { ':until': `${filters.until}#~` } : {}),
      ...partition.filter?.values,
    },
    ScanIndexForward: false,
  };
}

/**
 * The entries of several shard partitions merged newest first: each shard is read page by page
 * (each already newest first), and the newest head among them comes out next.
 */
async function* newestFirst(db: Db, queries: QueryCommandInput[], skName: string, pageSize: number): AsyncGenerator<Record<string, unknown>> {
  const shards = queries.map((query) => ({ query, items: [] as Record<string, unknown>[], start: undefined as Record<string, unknown> | undefined, done: false }));
  const fill = async (shard: (typeof shards)[number]) => {
    // A page can come back empty when a filter drops all it read: keep going until items or the end.
    while (shard.items.length === 0 && !shard.done) {
      const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...shard.query, Limit: pageSize, ExclusiveStartKey: shard.start }));
      shard.items.push(...(out.Items ?? []));
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

function choosePartition(projectId: string, f: ActivityFilters): { partition: ActivityListPartition; remainder?: (a: Activity) => boolean } {
  const checks: ((a: Activity) => boolean)[] = [];
  let partition: ActivityListPartition;
  if (f.email) partition = activityListPartition.recipient(projectId, f.email);
  else if (f.campaignId) partition = activityListPartition.campaign(projectId, f.campaignId);
  else if (f.automationRunId) partition = activityListPartition.automationRun(projectId, f.automationRunId);
  else if (f.status && (RARE_STATUSES as readonly string[]).includes(f.status)) partition = activityListPartition.status(projectId, f.status);
  else partition = activityListPartition.project(projectId);

  if (f.campaignId && partition.index !== 'gsi6') checks.push((a) => a.campaign_id === f.campaignId);
  if (f.automationRunId && !(partition.index === 'gsi6' && !f.campaignId)) checks.push((a) => a.automation_run_id === f.automationRunId);
  if (f.status && partition.index !== 'gsi5') checks.push((a) => a.current_status === f.status);
  if (f.senderDomain) checks.push((a) => a.sender_email.toLowerCase().endsWith(`@${f.senderDomain}`));
  const remainder = checks.length > 0 ? (a: Activity) => checks.every((c) => c(a)) : undefined;
  return { partition, remainder };
}

function rangeCondition(f: ActivityFilters): string {
  if (f.since && f.until) return ' AND #sk BETWEEN :since AND :until';
  if (f.since) return ' AND #sk >= :since';
  if (f.until) return ' AND #sk <= :until';
  return '';
}

/** The records of the given partitions, in the given order (BatchGet returns them unordered). */
async function readRecords(db: Db, partitions: string[]): Promise<Activity[]> {
  const items = await batchGetAll(db, partitions.map((pk) => ({ ...activityKey(pk.slice('ACT#'.length)) })));
  const byPk = new Map(items.map((item) => [item.pk as string, fromItem(item)]));
  return partitions.map((pk) => byPk.get(pk)).filter((a): a is Activity => a !== undefined);
}
