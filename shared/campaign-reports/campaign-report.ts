import { randomUUID } from 'node:crypto';
import type { ActivityStatus } from '../activity/activity';
import { listActivity } from '../activity/activity-list';
import type { Campaign } from '../campaigns/campaign';
import type { Services } from '../container';
import { badRequest, notFound } from '../errors';
import { paginationBlock, parsePageRequest, type PageRequest } from '../http/pagination';
import { ttlAfterDays } from '../store/client';
import { campaignExportObjectKey } from '../store/keys';
import { contentionBackoff } from '../store/transact';
import { presentExport, type CampaignExport, type ExportJob } from './campaign-export';
import { walkCampaign } from './campaign-walk';
import { leftOutReason, recipientOutcome, type LeftOutReason, type RecipientOutcome } from './recipient-outcome';
import { findProjectCampaign, getExport, latestExportId, putExportUnlessOneRuns, touchStalledExport } from './report-repository';

const STATUSES: readonly ActivityStatus[] = ['queued', 'retrying', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'cancelled'];
const REASONS: readonly LeftOutReason[] = ['suppressed', 'unsubscribed', 'invalid'];

/**
 * Filtered reports read every record of the campaign (the campaign index holds keys only); above
 * this many released recipients they answer 400 and point to the export, which has no such bound.
 */
export const FILTERED_REPORT_LIMIT = 100_000;

/** How long an export's record (and its download) is kept, and how long a download URL works. */
export const EXPORT_RETENTION_DAYS = 7;
export const DOWNLOAD_URL_SECONDS = 3600;

/** What an id of ours can look like (uuids, generated ids); anything else cannot name one, and is kept away from the key (DynamoDB refuses keys over 2 KB). */
const possibleId = (id: string | undefined): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(id);

/** The project's campaign, or 404 `NOT_FOUND` (part 7), also for another project's campaign. */
export async function projectCampaign(deps: Pick<Services, 'db'>, projectId: string, campaignId: string | undefined): Promise<Campaign> {
  const campaign = possibleId(campaignId) ? await findProjectCampaign(deps.db, projectId, campaignId) : undefined;
  if (!campaign) throw notFound('NOT_FOUND');
  return campaign;
}

function refuseLargeFilteredWalk(campaign: Campaign): void {
  if (Math.max(campaign.released ?? 0, campaign.total_recipients ?? 0) > FILTERED_REPORT_LIMIT) {
    throw badRequest(`Filtered reports serve campaigns of up to ${FILTERED_REPORT_LIMIT} recipients; use POST /v1/campaigns/${campaign.id}/exports for this one`);
  }
}

/** The slice of `items` a page shows. */
const pageOf = <T>(items: T[], page: PageRequest) => items.slice((page.page - 1) * page.perPage, page.page * page.perPage);

/**
 * `GET /v1/campaigns/:id/recipients`: the outcome of each recipient released so far. Without a
 * status, newest first from the campaign index (a page reads only its own records); with one, in
 * the campaign index's order, filtered on the records.
 */
export async function listRecipientOutcomes(deps: Pick<Services, 'db'>, projectId: string, campaignId: string | undefined, query: Readonly<Record<string, string | undefined>>) {
  const page = parsePageRequest(query);
  const status = query.status || undefined;
  if (status && !STATUSES.includes(status as ActivityStatus)) throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
  const campaign = await projectCampaign(deps, projectId, campaignId);
  let recipients: RecipientOutcome[];
  let total: number;
  if (!status) {
    const listed = await listActivity(deps.db, projectId, { campaignId: campaign.id }, page);
    recipients = listed.data.map(recipientOutcome);
    total = listed.total;
  } else {
    refuseLargeFilteredWalk(campaign);
    const matches: RecipientOutcome[] = [];
    await walkCampaign(deps.db, projectId, campaign.id, (a) => {
      if (a.current_status === status) matches.push(recipientOutcome(a));
    });
    recipients = pageOf(matches, page);
    total = matches.length;
  }
  return { success: true, campaign_id: campaign.id, recipients, pagination: paginationBlock(page, total, false) };
}

/**
 * `GET /v1/campaigns/:id/left-out`: the recipients the campaign did not send to, and why
 * (`suppressed`, `unsubscribed`, `invalid`), with the count per reason; `reason` filters the list.
 */
export async function listLeftOut(deps: Pick<Services, 'db'>, projectId: string, campaignId: string | undefined, query: Readonly<Record<string, string | undefined>>) {
  const page = parsePageRequest(query);
  const reason = query.reason || undefined;
  if (reason && !REASONS.includes(reason as LeftOutReason)) throw badRequest(`reason must be one of ${REASONS.join(', ')}`);
  const campaign = await projectCampaign(deps, projectId, campaignId);
  refuseLargeFilteredWalk(campaign);
  const counts: Record<LeftOutReason, number> = { suppressed: 0, unsubscribed: 0, invalid: 0 };
  const listed: { email: string; activity_id: string; reason: LeftOutReason; suppression_reason: string | null }[] = [];
  await walkCampaign(deps.db, projectId, campaign.id, (a) => {
    const why = leftOutReason(a);
    if (!why) return;
    counts[why]++;
    if (!reason || why === reason) listed.push({ email: a.recipient_primary, activity_id: a.id, reason: why, suppression_reason: a.suppression_reason ?? null });
  });
  const total = counts.suppressed + counts.unsubscribed + counts.invalid;
  return { success: true, campaign_id: campaign.id, left_out: { total, ...counts }, recipients: pageOf(listed, page), pagination: paginationBlock(page, listed.length, false) };
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
export async function startExport(deps: Pick<Services, 'db' | 'queue' | 'clock'>, projectId: string, campaignId: string | undefined) {
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
async function resumeIfStalled(deps: Pick<Services, 'db' | 'queue' | 'clock'>, record: CampaignExport): Promise<CampaignExport> {
  const now = deps.clock.now();
  if (now.getTime() - Date.parse(record.updated_at) < STALLED_EXPORT_MS) return record;
  if (await touchStalledExport(deps.db, record, now.toISOString())) {
    const job: ExportJob = { kind: 'run', project_id: record.project_id, campaign_id: record.campaign_id, export_id: record.id };
    await deps.queue.send('exports', job);
  }
  return record;
}

/** `GET /v1/campaigns/:id/exports/:exportId`: the export's progress, and a download URL (valid an hour) once completed. */
export async function showExport(deps: Pick<Services, 'db' | 'blobs'>, projectId: string, campaignId: string | undefined, exportId: string | undefined) {
  const campaign = await projectCampaign(deps, projectId, campaignId);
  const record = possibleId(exportId) ? await getExport(deps.db, campaign.id, exportId) : undefined;
  if (!record || record.project_id !== projectId) throw notFound('NOT_FOUND');
  const url = record.status === 'completed' ? await deps.blobs.downloadUrl(record.object_key, DOWNLOAD_URL_SECONDS, `campaign-${campaign.id}-outcomes.csv`) : undefined;
  return { success: true, export: presentExport(record, url) };
}
