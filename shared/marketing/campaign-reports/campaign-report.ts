import { randomUUID } from 'node:crypto';
import type { Activity, ActivityStatus } from '../../mail-pipeline/activity/activity';
import { activityPosition, listActivity } from '../../mail-pipeline/activity/activity-list';
import type { Campaign } from '../campaigns/campaign';
import type { Needs } from '../../platform/core/dependencies';
import { badRequest, notFound } from '../../platform/core/errors';
import { boundedPaginationBlock, listCursor, pageQuerySchema, parsePageRequest, type PageRequest } from '../../platform/http/pagination';
import * as z from '../../platform/core/zod';
import { ttlAfterDays } from '../../platform/store/client';
import { campaignExportObjectKey } from '../../platform/store/keys';
import { contentionBackoff } from '../../platform/store/transact';
import { ACTIVITY_STATUSES, LEFT_OUT_REASONS } from './campaign-report-answers';
import { presentExport, type CampaignExport, type ExportJob } from './campaign-export';
import { decodeCursor, encodeCursor, isStringRecord } from '../../platform/http/cursor';
import { activityListPartition } from '../../platform/store/keys';
import { getCampaign, readCampaignCounts } from '../campaigns/campaign-gateway';
import { WALK_START, scanCampaign, type WalkPosition } from './campaign-walk';
import { leftOutReason, recipientOutcome, type LeftOutReason } from './recipient-outcome';
import { getExport, latestExportId, putExportUnlessOneRuns, touchStalledExport } from './report-repository';

const STATUSES: readonly ActivityStatus[] = ACTIVITY_STATUSES;
const REASONS: readonly LeftOutReason[] = LEFT_OUT_REASONS;
const STATUS_MESSAGE = `status must be one of ${STATUSES.join(', ')}`;
const REASON_MESSAGE = `reason must be one of ${REASONS.join(', ')}`;

/** A query value that is absent, empty (the same), or one of `values`. */
const oneOf = (values: readonly string[], message: string) =>
  z.optional(z.string().check(z.refine((v) => v === '' || values.includes(v), message), z.meta({ description: `One of ${values.join(', ')}` })));

/** The `next_cursor` of the previous page of a report. */
const reportCursor = z.optional(z.string().check(z.meta({ description: 'The previous answer\'s `pagination.next_cursor`' })));

/** The query of `GET /v1/campaigns/{id}/recipients`, checked in listRecipientOutcomes' order: the page, then `status`. */
export const recipientOutcomesQuerySchema = z.object({ ...pageQuerySchema.shape, status: oneOf(STATUSES, STATUS_MESSAGE), cursor: reportCursor });

/** The query of `GET /v1/campaigns/{id}/left-out`, checked in listLeftOut's order: the page, then `reason`. */
export const leftOutQuerySchema = z.object({ ...pageQuerySchema.shape, reason: oneOf(REASONS, REASON_MESSAGE), cursor: reportCursor });

/**
 * A filtered report request reads at most this many records per recipient of its page (`per_page`):
 * 500 at the default page of 50, 2,000 at 200. A read that finds fewer matches than the page holds
 * answers them with a `next_cursor` to read on from.
 */
export const FILTERED_READS_PER_ROW = 10;

/** How long an export's record (and its download) is kept, and how long a download URL works. */
export const EXPORT_RETENTION_DAYS = 7;
export const DOWNLOAD_URL_SECONDS = 3600;

/** What an id of ours can look like (uuids, generated ids); anything else cannot name one, and is kept away from the key (DynamoDB refuses keys over 2 KB). */
const possibleId = (id: string | undefined): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(id);

/** The project's campaign, or 404 `NOT_FOUND` (part 7), also for another project's campaign. */
export async function projectCampaign(deps: Needs<'db'>, projectId: string, campaignId: string | undefined): Promise<Campaign> {
  const campaign = possibleId(campaignId) ? await getCampaign(deps.db, campaignId) : undefined;
  if (campaign?.project_id !== projectId) throw notFound('NOT_FOUND');
  return campaign;
}

/** A filtered report's page: `per_page`, and `cursor` (the previous answer's `next_cursor`) in place of `page`. */
function parseFilteredPage(query: Readonly<Record<string, string | undefined>>, page: PageRequest, projectId: string, campaignId: string): WalkPosition {
  if (page.page > 1) throw badRequest('Filtered reports page by cursor: pass the previous answer\'s next_cursor as cursor');
  const cursor = query.cursor || undefined;
  if (!cursor) return WALK_START;
  const partition = activityListPartition.campaign(projectId, campaignId);
  const keys = ['pk', 'sk', partition.pkName, partition.skName];
  return decodeCursor(cursor, (v): v is WalkPosition => {
    if (v === null || typeof v !== 'object') return false;
    const { shard, start, ...rest } = v as { shard?: unknown; start?: unknown };
    if (Object.keys(rest).length > 0 || !Number.isInteger(shard) || (shard as number) < 0 || (shard as number) >= partition.pks.length) return false;
    // A start key must be an entry of this campaign's own shard: a cursor never reads another list.
    return start === undefined || (isStringRecord(start, keys) && start[partition.pkName] === partition.pks[shard as number]);
  });
}

/** Reads one filtered page: at most FILTERED_READS_PER_ROW records per row of the page. */
async function scanPage<T>(deps: Needs<'db'>, projectId: string, campaign: Campaign, from: WalkPosition, page: PageRequest, keep: (a: Activity) => T | undefined) {
  const scan = await scanCampaign(deps.db, projectId, campaign.id, from, { want: page.perPage, maxRead: page.perPage * FILTERED_READS_PER_ROW }, keep);
  return { rows: scan.found, pagination: { per_page: page.perPage, read: scan.read, next_cursor: scan.next ? encodeCursor(scan.next) : null } };
}

/**
 * `GET /v1/campaigns/:id/recipients`: the outcome of each recipient released so far. Without a
 * status, newest first from the campaign index (a page reads only its own records, `page` works);
 * with one, in the campaign index's order, filtered on the records and paged by cursor.
 */
export async function listRecipientOutcomes(deps: Needs<'db'>, projectId: string, campaignId: string | undefined, query: Readonly<Record<string, string | undefined>>) {
  const page = parsePageRequest(query);
  const status = query.status || undefined;
  if (status && !STATUSES.includes(status as ActivityStatus)) throw badRequest(STATUS_MESSAGE);
  const campaign = await projectCampaign(deps, projectId, campaignId);
  if (!status) {
    const listed = await listActivity(deps.db, projectId, { campaignId: campaign.id }, page, activityPosition(listCursor(query, page)));
    return { success: true, campaign_id: campaign.id, recipients: listed.data.map(recipientOutcome), pagination: boundedPaginationBlock(page, listed, false) };
  }
  const from = parseFilteredPage(query, page, projectId, campaign.id);
  const { rows, pagination } = await scanPage(deps, projectId, campaign, from, page, (a) => (a.current_status === status ? recipientOutcome(a) : undefined));
  return { success: true, campaign_id: campaign.id, recipients: rows, pagination };
}

/**
 * `GET /v1/campaigns/:id/left-out`: the recipients the campaign did not send to, and why
 * (`suppressed`, `unsubscribed`, `invalid`), paged by cursor; `reason` filters the list. `left_out.total`
 * is the campaign's counter of recipients left out (a count per reason would read every record:
 * the export has each recipient's reason).
 */
export async function listLeftOut(deps: Needs<'db'>, projectId: string, campaignId: string | undefined, query: Readonly<Record<string, string | undefined>>) {
  const page = parsePageRequest(query);
  const reason = query.reason || undefined;
  if (reason && !REASONS.includes(reason as LeftOutReason)) throw badRequest(REASON_MESSAGE);
  const campaign = await projectCampaign(deps, projectId, campaignId);
  const from = parseFilteredPage(query, page, projectId, campaign.id);
  const [counts, { rows, pagination }] = await Promise.all([
    readCampaignCounts(deps.db, campaign.id),
    scanPage(deps, projectId, campaign, from, page, (a) => {
      const why = leftOutReason(a);
      if (!why || (reason && why !== reason)) return undefined;
      return { email: a.recipient_primary, activity_id: a.id, reason: why, suppression_reason: a.suppression_reason ?? null };
    }),
  ]);
  return { success: true, campaign_id: campaign.id, left_out: { total: counts.suppressed }, recipients: rows, pagination };
}

/**
 * A running export untouched this long has lost its run (a crash between its record and its queue
 * message, or a message dead-lettered): a repeat start queues it again. A live run touches the
 * record at every part, and a part takes at most a worker's 15 minutes plus the queue's 16-minute
 * visibility timeout to be retried, so no live run looks stalled.
 */
export const STALLED_EXPORT_MS = 40 * 60_000;

/**
 * `POST /v1/campaigns/:id/exports`: starts a CSV export of every recipient's outcome (202; poll the
 * export). One export of a campaign runs at a time: while one runs, a repeat answers it.
 */
export async function startExport(deps: Needs<'db' | 'queue' | 'clock'>, projectId: string, campaignId: string | undefined) {
  const campaign = await projectCampaign(deps, projectId, campaignId);
  const record = newExport(projectId, campaign.id, deps.clock.now());
  // A start that loses a race re-reads: a few rounds settle any number of parallel starts.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) await contentionBackoff(attempt);
    const latestId = await latestExportId(deps.db, campaign.id);
    const latest = latestId ? await getExport(deps.db, campaign.id, latestId) : undefined;
    if (latest?.status === 'running') return { success: true, export: presentExport(await resumeIfStalled(deps, latest)) };
    if (await putExportUnlessOneRuns(deps.db, record, latestId)) {
      const job: ExportJob = { kind: 'run', project_id: projectId, campaign_id: campaign.id, export_id: record.id };
      await deps.queue.send('exports', job);
      return { success: true, export: presentExport(record) };
    }
  }
  throw new Error(`Export start of campaign ${campaign.id} kept losing to concurrent starts`);
}

function newExport(projectId: string, campaignId: string, now: Date): CampaignExport {
  const id = randomUUID();
  return {
    id,
    project_id: projectId,
    campaign_id: campaignId,
    status: 'running',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    object_key: campaignExportObjectKey(projectId, campaignId, id),
    part: 0,
    claims: 0,
    parts: [],
    exhausted: false,
    rows: 0,
    ttl: ttlAfterDays(now, EXPORT_RETENTION_DAYS),
  };
}

/** Queues a stalled running export again (runs resume from the checkpoint); one repeat start per stall does. */
async function resumeIfStalled(deps: Needs<'db' | 'queue' | 'clock'>, record: CampaignExport): Promise<CampaignExport> {
  const now = deps.clock.now();
  if (now.getTime() - Date.parse(record.updated_at) < STALLED_EXPORT_MS) return record;
  if (await touchStalledExport(deps.db, record, now.toISOString())) {
    const job: ExportJob = { kind: 'run', project_id: record.project_id, campaign_id: record.campaign_id, export_id: record.id };
    await deps.queue.send('exports', job);
  }
  return record;
}

/** `GET /v1/campaigns/:id/exports/:exportId`: the export's progress, and a download URL (valid an hour) once completed. */
export async function showExport(deps: Needs<'db' | 'blobs'>, projectId: string, campaignId: string | undefined, exportId: string | undefined) {
  const campaign = await projectCampaign(deps, projectId, campaignId);
  const record = possibleId(exportId) ? await getExport(deps.db, campaign.id, exportId) : undefined;
  if (!record || record.project_id !== projectId) throw notFound('NOT_FOUND');
  const url = record.status === 'completed' ? await deps.blobs.downloadUrl(record.object_key, DOWNLOAD_URL_SECONDS, `campaign-${campaign.id}-outcomes.csv`) : undefined;
  return { success: true, export: presentExport(record, url) };
}
