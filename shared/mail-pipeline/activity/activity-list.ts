import * as z from '../../platform/core/zod';
import { parseRequest } from '../../platform/core/validate';
import { type BoundedTotal, type PageRequest } from '../../platform/http/pagination';
import { isDomainName } from '../../platform/mail/addresses';
import type { Db } from '../../platform/store/client';
import { FILTERED_READS_PER_ENTRY, newestFirst, readMergedPage } from '../../platform/store/bounded-list';
import { decodeCursor, encodeCursor, isStringRecord } from '../../platform/http/cursor';
import { RARE_STATUSES, activityListPartition, type ActivityListPartition } from '../../platform/store/keys';
import type { Activity, ActivityStatus } from './activity';
import { activitiesInOrder, activityListQuery } from './activity-repository';

const STATUSES: readonly ActivityStatus[] = ['queued', 'retrying', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'cancelled'];

export interface ActivityFilters {
  email?: string;
  senderDomain?: string;
  status?: ActivityStatus;
  automationRunId?: string;
  campaignId?: string;
  since?: string;
  until?: string;
  /** Only test mail (true) or only live mail (false): the console's test and live views. */
  isTest?: boolean;
}

const INVALID_SENDER_DOMAIN = 'INVALID_SENDER_DOMAIN';
/** `Mail.Example.com` or `@example.com` as the index keeps it. */
const senderDomainOf = (value: string): string => value.trim().toLowerCase().replace(/^@/, '');
/** A text `new Date` reads (ISO 8601 and the forms JavaScript accepts, as before). */
const isDate = (value: string): boolean => !Number.isNaN(new Date(value).getTime());
const timestamp = (name: string) => z.optional(z.string().check(z.refine((v) => v === '' || isDate(v), `${name} must be an ISO 8601 timestamp`)));

/**
 * The filters of `GET /v1/activity` (4.11), fields in the order they are checked; an empty value
 * filters nothing. An invalid sender domain is 400 INVALID_SENDER_DOMAIN naming the value.
 */
export const activityFilterFields = {
  email: z.optional(z.string()),
  sender_domain: z.optional(
    z.string().check(
      z.superRefine((v, ctx) => {
        if (v === '' || isDomainName(senderDomainOf(v))) return;
        ctx.issues.push({ code: 'custom', message: INVALID_SENDER_DOMAIN, input: v, params: { refusal: { code: INVALID_SENDER_DOMAIN, status: 400, extra: { sender_domain: v } } } });
      }),
    ),
  ),
  status: z.optional(z.string().check(z.refine((v) => v === '' || STATUSES.includes(v as ActivityStatus), `status must be one of ${STATUSES.join(', ')}`))),
  automation_run_id: z.optional(z.string()),
  campaign_id: z.optional(z.string()),
  since: timestamp('since'),
  until: timestamp('until'),
  is_test: z.optional(
    z.string().check(
      z.refine((v) => v === '' || v === 'true' || v === 'false', 'is_test must be true or false'),
      z.meta({ description: '`true`: only mail sent with a test key; `false`: only live mail (a dashboard\'s Live view). Checked on the records, like `sender_domain`' }),
    ),
  ),
};

/** `since` after `until` is refused, after every field's own problem: only two good timestamps can be out of order. */
export const sinceNotAfterUntil = z.refine<{ since?: string; until?: string }>((q) => !(q.since && q.until && new Date(q.since) > new Date(q.until)), {
  message: 'since must not be after until',
  when: (payload) => payload.issues.length === 0,
});

/** The query of `GET /v1/activity` (4.11) without paging; page and per_page are read by shared/platform/http/pagination. */
export const activityQuerySchema = z.object(activityFilterFields).check(sinceNotAfterUntil);

/** Reads the filters of `GET /v1/activity` (4.11); an invalid sender domain is INVALID_SENDER_DOMAIN. */
export function parseActivityFilters(query: Readonly<Record<string, string | undefined>>): ActivityFilters {
  return toActivityFilters(parseRequest(activityQuerySchema, query));
}

/** Filters from a query the schema accepted: addresses and domains lowercased, times as ISO UTC. */
export function toActivityFilters(q: z.output<typeof activityQuerySchema>): ActivityFilters {
  const filters: ActivityFilters = {};
  if (q.email) filters.email = q.email.trim().toLowerCase();
  if (q.sender_domain) filters.senderDomain = senderDomainOf(q.sender_domain);
  if (q.status) filters.status = q.status as ActivityStatus;
  if (q.automation_run_id) filters.automationRunId = q.automation_run_id;
  if (q.campaign_id) filters.campaignId = q.campaign_id;
  if (q.since) filters.since = new Date(q.since).toISOString();
  if (q.until) filters.until = new Date(q.until).toISOString();
  if (q.is_test) filters.isTest = q.is_test === 'true';
  return filters;
}

/** Where a page of a list of activity starts: below the index sort key of the last entry shown. */
export interface ActivityPosition {
  after: string;
}

/** The position an activity list cursor names (checked: one key string, nothing else). */
export function activityPosition(cursor: string | undefined): ActivityPosition | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursor(cursor, (v): v is ActivityPosition => isStringRecord(v, ['after']));
}

export interface ActivityPage extends BoundedTotal {
  data: Activity[];
}

/**
 * `GET /v1/activity`, newest first. The most selective index serves the query (recipient, campaign
 * or run, a rare status, else the project's list), bounded by `since`/`until` on the creation time.
 * Every index is sharded (keys.ts), so its shard partitions are read side by side and merged newest
 * first. What the index cannot answer (sender domain, test or live, a common status, a second filter) is checked
 * on the records themselves.
 *
 * A request reads at most its offset and page of index entries (plus one short read-ahead per
 * shard) and then counts at most COUNT_WINDOW entries after the page for `total`; with a remainder
 * filter it reads at most FILTERED_READS_PER_ENTRY records per entry skipped or shown, and `total`
 * says only whether more may follow. `from` (a cursor) starts below the last entry of a page.
 */
export async function listActivity(db: Db, projectId: string, filters: ActivityFilters, page: PageRequest, from?: ActivityPosition): Promise<ActivityPage> {
  const { partition, remainder } = choosePartition(projectId, filters);
  const offset = from ? 0 : (page.page - 1) * page.perPage;

  if (!remainder) {
    const listed = await readMergedPage(db, (after) => partition.pks.map((pk) => activityListQuery(db, partition, pk, filters, after)), partition, page, from?.after);
    const { next, ...rest } = listed;
    return { ...rest, data: await activitiesInOrder(db, listed.entries.map((e) => e.pk as string)), nextCursor: next ? encodeCursor({ after: next } satisfies ActivityPosition) : null };
  }

  // A remainder filter: walk the range newest first, reading records a hundred at a time, keeping the matches, within a budget.
  const budget = (offset + page.perPage) * FILTERED_READS_PER_ENTRY;
  const data: Activity[] = [];
  let matched = 0;
  let read = 0;
  let last: string | undefined;
  let more = false;
  let chunk: { pk: string; sk: string }[] = [];
  const look = async () => {
    const byPk = new Map((await activitiesInOrder(db, chunk.map((e) => e.pk))).map((a) => [`ACT#${a.id}`, a]));
    for (const entry of chunk) {
      if (data.length === page.perPage) {
        more = true;
        break;
      }
      last = entry.sk;
      const activity = byPk.get(entry.pk);
      if (activity && remainder(activity) && matched++ >= offset) data.push(activity);
    }
    chunk = [];
  };
  const queries = partition.pks.map((pk) => activityListQuery(db, partition, pk, filters, from?.after));
  for await (const entry of newestFirst(db, queries, partition.skName, 100, from?.after)) {
    if (data.length === page.perPage || read >= budget) {
      more = true;
      break;
    }
    chunk.push({ pk: entry.pk as string, sk: String(entry[partition.skName]) });
    read++;
    if (chunk.length === 100 || read >= budget) await look();
  }
  if (chunk.length > 0) await look();
  const total = Math.min(matched, offset) + data.length + (more ? 1 : 0);
  return { data, total, totalIsEstimate: more, nextCursor: more && last ? encodeCursor({ after: last } satisfies ActivityPosition) : null };
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
  if (f.isTest !== undefined) checks.push((a) => a.is_test === f.isTest);
  const remainder = checks.length > 0 ? (a: Activity) => checks.every((c) => c(a)) : undefined;
  return { partition, remainder };
}
