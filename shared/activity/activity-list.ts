import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { badRequest } from '../errors';
import type { PageRequest } from '../http/pagination';
import { isDomainName } from '../mail/addresses';
import type { Db } from '../store/client';
import { batchGetAll } from '../store/batch-get';
import { countAll } from '../store/query';
import { RARE_STATUSES, activityKey, activityListPartition } from '../store/keys';
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

/** Reads the filters of `GET /v1/activity` (4.11); an invalid sender domain is INVALID_SENDER_DOMAIN. */
export function parseActivityFilters(query: Readonly<Record<string, string | undefined>>): ActivityFilters {
  const filters: ActivityFilters = {};
  if (query.email) filters.email = query.email.trim().toLowerCase();
  if (query.sender_domain) {
    const domain = query.sender_domain.trim().toLowerCase().replace(/^@/, '');
    if (!isDomainName(domain)) throw badRequest('INVALID_SENDER_DOMAIN', 'INVALID_SENDER_DOMAIN', { sender_domain: query.sender_domain });
    filters.senderDomain = domain;
  }
  if (query.status) {
    if (!STATUSES.includes(query.status as ActivityStatus)) throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
    filters.status = query.status as ActivityStatus;
  }
  if (query.automation_run_id) filters.automationRunId = query.automation_run_id;
  if (query.campaign_id) filters.campaignId = query.campaign_id;
  for (const [name, key] of [
    ['since', 'since'],
    ['until', 'until'],
  ] as const) {
    const value = query[name];
    if (!value) continue;
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) throw badRequest(`${name} must be an ISO 8601 timestamp`);
    filters[key] = date.toISOString();
  }
  if (filters.since && filters.until && filters.since > filters.until) throw badRequest('since must not be after until');
  return filters;
}

/**
 * `GET /v1/activity`, newest first. The most selective index serves the query (recipient, campaign
 * or run, a rare status, else the project's list), bounded by `since`/`until` on the creation time;
 * what that index cannot answer (sender domain, a common status, a second filter) is checked on the
 * records themselves. Without such a remainder a page reads only its own records, wherever it is;
 * the total is a keys-only count of the range (about 40 entries per read unit).
 */
export async function listActivity(db: Db, projectId: string, filters: ActivityFilters, page: PageRequest): Promise<{ data: Activity[]; total: number }> {
  const { partition, remainder } = choosePartition(projectId, filters);
  const query = {
    TableName: db.tableName,
    IndexName: partition.index,
    KeyConditionExpression: `#pk = :pk${rangeCondition(filters)}`,
    ExpressionAttributeNames: { '#pk': partition.pkName, ...(filters.since || filters.until ? { '#sk': partition.skName } : {}) },
    ExpressionAttributeValues: {
      ':pk': partition.pk,
      ...(filters.since ? { ':since': filters.since } : {}),
      ...(filters.until ? { ':until': `${filters.until}#~` } : {}),
    },
    ScanIndexForward: false,
  };
  const offset = (page.page - 1) * page.perPage;

  if (!remainder) {
    const total = await countAll(db, query);
    const startKey = offset > 0 ? await skip(db, query, offset) : undefined;
    if (offset > 0 && !startKey) return { data: [], total };
    const keysPage = await db.doc.send(new QueryCommand({ ...query, Limit: page.perPage, ExclusiveStartKey: startKey }));
    return { data: await readRecords(db, (keysPage.Items ?? []).map((i) => i.pk as string)), total };
  }

  // A remainder filter: walk the range newest first, reading records in pages, and keep the matches.
  const data: Activity[] = [];
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...query, Limit: 100, ExclusiveStartKey: start }));
    for (const activity of await readRecords(db, (out.Items ?? []).map((i) => i.pk as string))) {
      if (!remainder(activity)) continue;
      if (total >= offset && data.length < page.perPage) data.push(activity);
      total++;
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return { data, total };
}

function choosePartition(projectId: string, f: ActivityFilters) {
  const checks: ((a: Activity) => boolean)[] = [];
  let partition;
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


/** The key after the first `count` entries: a keys-only count, so skipping stays cheap. */
async function skip(db: Db, query: ConstructorParameters<typeof QueryCommand>[0], count: number): Promise<Record<string, unknown> | undefined> {
  let remaining = count;
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...query, Select: 'COUNT', Limit: remaining, ExclusiveStartKey: start }));
    remaining -= out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (remaining > 0 && start);
  return remaining === 0 ? start : undefined;
}

/** The records of the given partitions, in the given order (BatchGet returns them unordered). */
async function readRecords(db: Db, partitions: string[]): Promise<Activity[]> {
  const items = await batchGetAll(db, partitions.map((pk) => ({ ...activityKey(pk.slice('ACT#'.length)) })));
  const byPk = new Map(items.map((item) => [item.pk as string, fromItem(item)]));
  return partitions.map((pk) => byPk.get(pk)).filter((a): a is Activity => a !== undefined);
}
