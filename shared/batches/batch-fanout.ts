import type { Activity, ActivityStatus } from '../activity/activity';
import { existingActivityIds, putActivitiesInBatch } from '../activity/activity-repository';
import type { Services } from '../container';
import { logger } from '../logger';
import { ttlAfterDays } from '../store/client';
import { hasWebhookTargets, isApiSend } from '../events/email-events';
import { isEmail } from '../mail/addresses';
import { getProject } from '../projects/project-repository';
import { suppressedEvent } from '../suppression/suppression-events';
import { findSuppressed, type SuppressionEntry } from '../suppression/suppression-repository';
import type { Batch, BatchRecipient } from './batch';
import { batchRecipientActivity, storedRecipientActivity } from './batch-record';
import { batchActivityId } from './batch-ids';
import { groupSendJobs, type ChunkJob, type JobRecipient } from './batch-jobs';
import { finishChunk, getBatch, loadBatchChunk, markChunkStarted, type ChunkCounts } from './batch-repository';

/** What became of one chunk message. */
export type ChunkOutcome = 'expanded' | 'already-done' | 'not-ready' | 'missing';

/**
 * Expands one chunk of a batch: writes its activity records with BatchWrite (`queued`, or
 * `suppressed` for addresses on the project's list, or `cancelled` for a cancelled batch) and
 * queues its mails, fifty recipients to a `batch-send` message. A redelivered chunk first asks
 * which records exist and writes only the missing ones, so no mail already sent goes back to
 * `queued`; the mails' own claims keep a duplicate job from sending twice.
 */
/** Counts of a campaign's wave, added per worker batch (a CampaignCounterBatch, passed in by the worker). */
export interface WaveCounters {
  add(campaignId: string, field: 'suppressed', n: number): void;
}

/** Why a recipient of a campaign's wave is left out without a send: its address cannot take mail. */
export const INVALID_ADDRESS_REASON = 'invalid_address';

export async function expandChunk(deps: Services, job: ChunkJob, counters?: WaveCounters): Promise<ChunkOutcome> {
  const batch = await getBatch(deps.db, job.batch_id, true);
  if (!batch || batch.project_id !== job.project_id) return 'missing';
  // A chunk is expanded once the batch is going out, or to record its cancellation.
  if (batch.status === 'scheduled') return 'not-ready';
  if (chunksDone(batch).includes(job.chunk)) return 'already-done';

  const seenBefore = await markChunkStarted(deps.db, batch.id, job.chunk);
  const recipients = await loadBatchChunk(deps.blobs, batch.project_id, batch.id, job.chunk);
  const first = job.chunk * batch.chunk_size;
  const ids = recipients.map((_, i) => batchActivityId(batch.id, first + i));
  const existing = seenBefore ? await existingActivityIds(deps.db, ids) : new Map<string, ActivityStatus>();

  const cancelled = batch.status === 'cancelled';
  const suppressed = cancelled ? new Map<string, SuppressionEntry>() : await findSuppressed(deps.db, batch.project_id, recipients.map((r) => r.email));
  const now = deps.clock.now().toISOString();
  const counts: ChunkCounts = { queued: 0, suppressed: 0, cancelled: 0 };
  const records: Activity[] = [];
  const toSend: JobRecipient[] = [];
  recipients.forEach((recipient, i) => {
    const id = ids[i];
    const entry = suppressed.get(recipient.email);
    const invalid = !cancelled && !isEmail(recipient.email);
    const status: ActivityStatus = cancelled ? 'cancelled' : entry || invalid ? 'suppressed' : 'queued';
    counts[status === 'queued' ? 'queued' : status === 'suppressed' ? 'suppressed' : 'cancelled'] += 1;
    const before = existing.get(id);
    if (before === undefined) records.push(storedRecipientActivity(batchRecipientActivity(batch, recipient, id, status, { created_at: now, updated_at: now }, invalid ? INVALID_ADDRESS_REASON : entry?.reason)));
    // A record still queued (first try, or a redelivery that found it so) gets its job; one moved on has been handled.
    if (status === 'queued' && (before === undefined || before === 'queued')) toSend.push(jobRecipient(recipient, first + i));
  });

  await putActivitiesInBatch(deps.db, records, ttlAfterDays(deps.clock.now(), deps.config.ACTIVITY_RETENTION_DAYS));
  const jobs = groupSendJobs({ batch_id: batch.id, project_id: batch.project_id, ...(batch.campaign_id ? { campaign_id: batch.campaign_id } : {}) }, toSend);
  if (jobs.length > 0) await deps.queue.sendBatch('batch-send', jobs);
  await publishSuppressed(deps, batch, records, suppressed, now);
  // A campaign counts its left-out recipients once per chunk (the chunk's first finish).
  if ((await finishChunk(deps.db, batch.id, job.chunk, counts, now)) && batch.campaign_id && counts.suppressed > 0) counters?.add(batch.campaign_id, 'suppressed', counts.suppressed);
  logger.debug('Batch chunk expanded', { batchId: batch.id, chunk: job.chunk, ...counts, redelivery: seenBefore });
  return 'expanded';
}

/** `email.suppressed` for the records this run wrote as suppressed (part 3: batch sends are API sends). */
async function publishSuppressed(deps: Services, batch: Batch, records: Activity[], suppressed: Map<string, SuppressionEntry>, now: string): Promise<void> {
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

/** The chunks the fan-out has finished. */
function chunksDone(batch: Batch): number[] {
  const done = batch.chunks_done;
  return done ? [...done].map(Number) : [];
}


function jobRecipient(recipient: BatchRecipient, index: number): JobRecipient {
  return { index, email: recipient.email, ...(recipient.name ? { name: recipient.name } : {}), ...(recipient.data ? { data: recipient.data } : {}) };
}
