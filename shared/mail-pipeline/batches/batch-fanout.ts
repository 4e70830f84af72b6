import type { Activity, ActivityStatus } from '../activity/activity';
import { existingActivities, putActivitiesInBatch, transitionFromSendable } from '../activity/activity-repository';
import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import { ttlAfterDays } from '../../platform/store/client';
import { failedEvent, hasWebhookTargets, isApiSend } from '../events/email-events';
import { isEmail } from '../../platform/mail/addresses';
import { getProject } from '../../platform/projects/project-repository';
import { suppressedEvent } from '../suppression/suppression-events';
import type { CounterBatch } from '../../identities/stats/domain-stats';
import { findSuppressed, type SuppressionEntry } from '../suppression/suppression-repository';
import type { Batch, BatchRecipient } from './batch';
import { batchRecipientActivity, storedRecipientActivity } from './batch-record';
import { batchActivityId } from './batch-ids';
import { groupSendJobs, type ChunkJob, type JobRecipient } from './batch-jobs';
import { unwritableFailure, unwritableProblem, withoutMetadata } from './unwritable-recipient';
import { finishChunk, getBatch, loadBatchChunk, markChunkStarted, type ChunkCounts } from './batch-repository';

/** What became of one chunk message. */
export type ChunkOutcome = 'expanded' | 'already-done' | 'not-ready' | 'missing';

/** Counts of a campaign's wave, added per worker batch (a CampaignCounterBatch, passed in by the worker). */
export interface WaveCounters {
  add(campaignId: string, field: 'suppressed' | 'failed', n: number): void;
}

/** Why a recipient of a campaign's wave is left out without a send: its address cannot take mail. */
export const INVALID_ADDRESS_REASON = 'invalid_address';

/**
 * Expands one chunk of a batch: writes its activity records with BatchWrite (`queued`, or
 * `suppressed` for addresses on the project's list, `cancelled` for a cancelled batch, `failed`
 * for a recipient whose record or job cannot be written) and queues its mails, fifty recipients to
 * a `batch-send` message. Records that exist already (a redelivered chunk, a scheduled batch's
 * written at accept, a cancel's) are not written again, so no mail already sent goes back to
 * `queued`; a queued one whose recipient must not be sent moves on by a conditional update. The
 * mails' own claims keep a duplicate job from sending twice.
 */
export async function expandChunk(deps: Needs<'config' | 'db' | 'queue' | 'blobs' | 'clock' | 'events'>, job: ChunkJob, counters?: WaveCounters, stats?: CounterBatch): Promise<ChunkOutcome> {
  const batch = await getBatch(deps.db, job.batch_id, true);
  if (!batch || batch.project_id !== job.project_id) return 'missing';
  // A chunk is expanded once the batch is going out, or to record its cancellation.
  if (batch.status === 'scheduled') return 'not-ready';
  if (chunksDone(batch).includes(job.chunk)) return 'already-done';

  const seenBefore = await markChunkStarted(deps.db, batch.id, job.chunk);
  const recipients = await loadBatchChunk(deps.blobs, batch.project_id, batch.id, job.chunk);
  const first = job.chunk * batch.chunk_size;
  const ids = recipients.map((_, i) => batchActivityId(batch.id, first + i));
  const cancelled = batch.status === 'cancelled';
  const existing = await recordsBefore(deps, batch, ids, seenBefore);

  const suppressed = cancelled ? new Map<string, SuppressionEntry>() : await findSuppressed(deps.db, batch.project_id, recipients.map((r) => r.email));
  const now = deps.clock.now().toISOString();
  // A scheduled batch's records were accepted when it was (as those its API call wrote are).
  const createdAt = batch.scheduled_for ? batch.created_at : now;
  const counts: ChunkCounts = { queued: 0, suppressed: 0, cancelled: 0, failed: 0 };
  const records: Activity[] = [];
  const moves: Activity[] = [];
  const toSend: JobRecipient[] = [];
  recipients.forEach((recipient, i) => {
    const id = ids[i];
    const entry = suppressed.get(recipient.email);
    const invalid = !cancelled && !isEmail(recipient.email);
    // A recipient whose record or job cannot be written fails alone, recorded without what made it so.
    const problem = unwritableProblem(recipient);
    const status: ActivityStatus = cancelled ? 'cancelled' : entry || invalid ? 'suppressed' : problem ? 'failed' : 'queued';
    counts[status as keyof ChunkCounts] += 1;
    const before = existing.get(id);
    const record = () => {
      const made = batchRecipientActivity(batch, problem?.field === 'metadata' ? withoutMetadata(recipient) : recipient, id, status, { created_at: before?.created_at ?? createdAt, updated_at: now }, invalid ? INVALID_ADDRESS_REASON : entry?.reason);
      return storedRecipientActivity(status === 'failed' ? { ...made, failure: unwritableFailure(problem!) } : made);
    };
    if (before === undefined) records.push(record());
    // A record written queued (at accept, or by an earlier delivery) that must not be sent moves on, once.
    else if (before.current_status === 'queued' && status !== 'queued') moves.push(record());
    // A record still queued (first try, or a redelivery that found it so) gets its job; one moved on has been handled.
    if (status === 'queued' && (before === undefined || before.current_status === 'queued')) toSend.push(jobRecipient(recipient, first + i));
  });

  const moved = await moveRecords(deps, moves);
  await putActivitiesInBatch(deps.db, records, ttlAfterDays(deps.clock.now(), deps.config.ACTIVITY_RETENTION_DAYS));
  const jobs = groupSendJobs({ batch_id: batch.id, project_id: batch.project_id, ...(batch.campaign_id ? { campaign_id: batch.campaign_id } : {}) }, toSend);
  if (jobs.length > 0) await deps.queue.sendBatch('batch-send', jobs);
  await publishSuppressed(deps, batch, [...records, ...moved], suppressed, now);
  await publishFailed(deps, batch, [...records, ...moved], now);
  // A campaign counts its left-out and failed recipients once per chunk (the chunk's first finish).
  // The project's hourly counters likewise, so that a redelivered chunk counts nothing twice.
  if (await finishChunk(deps.db, batch.id, job.chunk, counts, now)) {
    const mode = batch.mode === 'test' ? 'test' : 'live';
    if (counts.suppressed > 0) stats?.addProject(batch.project_id, mode, now, 'suppressed', counts.suppressed);
    if (counts.failed > 0) stats?.addProject(batch.project_id, mode, now, 'failed', counts.failed);
    if (batch.campaign_id) {
      if (counts.suppressed > 0) counters?.add(batch.campaign_id, 'suppressed', counts.suppressed);
      if (counts.failed > 0) counters?.add(batch.campaign_id, 'failed', counts.failed);
    }
  }
  logger.debug('Batch chunk expanded', { batchId: batch.id, chunk: job.chunk, ...counts, redelivery: seenBefore });
  return 'expanded';
}

/**
 * The records of the chunk that exist already, with their status and creation time: none on a
 * first delivery of an immediate batch; every one, queued, for a scheduled batch whose records were
 * written at accept (`records_written`), which so needs no read; read (strongly consistent: a
 * record missed by a stale read would be written again as `queued` over a sent one) on a
 * redelivery, for a cancelled batch (its DELETE wrote them, unless it crashed) and for a scheduled
 * batch whose accept may have written some but not all.
 */
async function recordsBefore(deps: Needs<'db'>, batch: Batch, ids: string[], seenBefore: boolean): Promise<Map<string, Pick<Activity, 'current_status' | 'created_at'>>> {
  const atAccept = batch.records_written === true;
  if (seenBefore || batch.status === 'cancelled' || (batch.scheduled_for !== undefined && !atAccept)) return existingActivities(deps.db, ids);
  if (atAccept) return new Map(ids.map((id) => [id, { current_status: 'queued', created_at: batch.created_at }]));
  return new Map();
}

/**
 * Moves queued records to the status their recipient gets at the fan-out (suppressed, failed,
 * cancelled), each conditionally, so a record a send worker took meanwhile is left alone. Returns
 * the records moved by this call (their events are this call's to emit).
 */
async function moveRecords(deps: Needs<'db'>, records: Activity[]): Promise<Activity[]> {
  const moved = await Promise.all(
    records.map(async (record) => {
      const { id: _id, project_id: _p, created_at: _c, current_status: status, ...fields } = record;
      const changed = await transitionFromSendable(deps.db, record, status, { updated_at: record.updated_at, ...pick(fields, ['suppression_reason', 'failure']) });
      return changed ? record : undefined;
    }),
  );
  return moved.filter((r): r is Activity => r !== undefined);
}

/** The named fields of `from` that are set. */
function pick(from: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => from[n] !== undefined).map((n) => [n, from[n]]));
}

/** `email.suppressed` for the records this run wrote as suppressed (part 3: batch sends are API sends). */
async function publishSuppressed(deps: Needs<'db' | 'events'>, batch: Batch, records: Activity[], suppressed: Map<string, SuppressionEntry>, now: string): Promise<void> {
  // Campaign mails emit no email.suppressed (part 6: email events are for API sends).
  const written = records.filter((r) => r.current_status === 'suppressed' && isApiSend(r));
  if (written.length === 0) return;
  const project = await getProject(deps.db, batch.project_id);
  if (!project || !hasWebhookTargets(project)) return;
  for (const activity of written) {
    const entry = suppressed.get(activity.recipient_primary);
    if (entry) await deps.events.publish(suppressedEvent(activity, entry, now));
  }
}

/** `email.failed` for the records this run wrote as failed (an API send's final failure, part 6). */
async function publishFailed(deps: Needs<'db' | 'events'>, batch: Batch, records: Activity[], now: string): Promise<void> {
  const written = records.filter((r) => r.current_status === 'failed' && r.failure && isApiSend(r));
  if (written.length === 0) return;
  const project = await getProject(deps.db, batch.project_id);
  if (!project || !hasWebhookTargets(project)) return;
  for (const activity of written) await deps.events.publish(failedEvent(activity, activity.failure!, now));
}

/** The chunks the fan-out has finished. */
function chunksDone(batch: Batch): number[] {
  const done = batch.chunks_done;
  return done ? [...done].map(Number) : [];
}


function jobRecipient(recipient: BatchRecipient, index: number): JobRecipient {
  return { index, email: recipient.email, ...(recipient.name ? { name: recipient.name } : {}), ...(recipient.data ? { data: recipient.data } : {}) };
}
