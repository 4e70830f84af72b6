import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';

/** What accepting a batch touches: the header and records, the blobs, the fan-out queue, the clock, the signing secret. */
type AcceptBatchDeps = Needs<'db' | 'queue' | 'blobs' | 'clock' | 'config' | 'tokenSecret'>;
import { AppError, badRequest, conflict, notFound } from '../../platform/core/errors';
import { pauseExplanation } from '../../identities/reputation/project-reputation';
import {
  BATCH_CHUNK_SIZE,
  checkProjectCanSend,
  defaultSubject,
  deferAccept,
  DRY_RUN_PREVIEWS,
  HTML_PREVIEW_LIMIT,
  POLICY_MESSAGES,
  resolveScheduledAt,
  type ResolvedSchedule,
} from '..';
import { logger } from '../../platform/core/logger';
import { ttlAfterDays } from '../../platform/store/client';
import { scheduledBatchDueId } from '../../platform/store/keys';
import { findSuppressed } from '../suppression/suppression-repository';
import type { Template } from '../templates/template';
import { findTemplate } from '../templates/template-service';
import type { Batch, BatchContent, BatchRecipient } from './batch';
import { batchActivityId, newBatchId } from './batch-ids';
import { chunkJobs } from './batch-jobs';
import { composeBatchMail } from './batch-mail';
import type { BatchInput } from './batch-request';
import { cancelAcceptedBatch, cancelScheduledBatch, markRecordsWritten, putBatch, putBatchBlobs } from './batch-repository';
import { batchRecipientActivity, storedRecipientActivity } from './batch-record';
import { putActivitiesInBatch } from '../activity/activity-repository';

/** BatchWrite requests in flight at once while the API writes a scheduled batch's records (a 10,000-recipient batch is 400). */
const ACCEPT_WRITE_LANES = 16;

/** The payload bucket expires objects after 14 days (lib/storage.ts); a batch must go out before. */
export const MAX_SCHEDULE_AHEAD_DAYS = 13;

/**
 * `POST /v1/send-batch` (part 4.3). Checks everything that can be checked at once (project,
 * environment, template, the first recipient's render, the time), then writes one header item and
 * the blobs (content once, recipients in chunks of 500) and queues one fan-out message per chunk,
 * or leaves a scheduled batch to the sweep. An immediate batch writes nothing per recipient here:
 * each activity id is derived from the batch id (batch-ids.ts). A scheduled one writes its records
 * (writeScheduledRecords).
 */
export async function acceptBatch(deps: AcceptBatchDeps, caller: ProjectCaller, input: BatchInput, requestBaseUrl?: string) {
  checkProjectCanSend(caller, input.content.environment);
  refusePausedMarketing(caller, input);
  const projectId = caller.project.id;
  const template = input.content.templateId ? await findTemplate(deps.db, projectId, input.content.templateId) : undefined;
  if (input.content.templateId && !template) throw notFound(POLICY_MESSAGES.templateNotFound(input.content.templateId));
  const now = deps.clock.now();
  const schedule = input.scheduledAt ? resolveSchedule(input, caller, now) : undefined;
  const content: BatchContent = { ...input.content, requestBaseUrl };
  const batchId = newBatchId();
  const secret = await deps.tokenSecret();
  // Content that cannot be rendered is refused now (400/422), not found out by every mail.
  const preview = (i: number) =>
    composeBatchMail(deps, { content, template, recipient: input.recipients[i], activityId: batchActivityId(batchId, i), projectId, secret, preview: input.dryRun });
  const first = preview(0);

  if (input.dryRun) return dryRun(deps, caller, input, template, first, preview, schedule);

  const batch: Batch = {
    id: batchId,
    project_id: projectId,
    mode: caller.mode,
    status: schedule ? 'scheduled' : 'sending',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    scheduled_for: schedule?.instant.toISOString(),
    timezone: schedule?.timezone,
    recipient_count: input.recipients.length,
    duplicates_removed: input.duplicatesRemoved,
    chunk_size: BATCH_CHUNK_SIZE,
    chunk_count: Math.ceil(input.recipients.length / BATCH_CHUNK_SIZE),
    subject: input.content.subject ?? template?.subject ?? defaultSubject(deps),
    sender_email: input.content.sender,
    sender_name: input.content.senderName,
    email_type: input.content.emailType,
    template_id: template?.id,
    environment: input.content.environment,
  };
  // Blobs first: the header, once written, is what workers and reads trust.
  await putBatchBlobs(deps.blobs, batch, content, input.recipients);
  if (!(await putBatch(deps.db, batch, ttlAfterDays(schedule?.instant ?? now, deps.config.ACTIVITY_RETENTION_DAYS)))) throw new Error(`Batch ${batch.id} exists already`);
  if (schedule) {
    try {
      await writeScheduledRecords(deps, batch, input.recipients, now);
    } catch (error) {
      // Not accepted: cancelled, and its fan-out turns the records written so far to `cancelled`.
      await withdrawScheduledBatch(deps, batch, now).catch((e: Error) => logger.error('A scheduled batch whose records failed could not be withdrawn', { batchId, error: e }));
      throw new AppError(502, 'Failed to process request', undefined, {}, { cause: error });
    }
  }
  if (!schedule) {
    try {
      await deps.queue.sendBatch('fanout', chunkJobs(batch));
    } catch (error) {
      // Not accepted: cancelled, so a chunk queued before the failure writes `cancelled` records and sends nothing.
      await cancelAcceptedBatch(deps.db, batchId, now.toISOString()).catch(() => undefined);
      throw new AppError(502, 'Failed to process request', undefined, {}, { cause: error });
    }
  } else {
    // The deferred accept: the sweep queues it as well, so a lost early message costs nothing but a log line.
    await deferAccept(deps, { id: scheduledBatchDueId(batchId), scheduled_for: batch.scheduled_for! }, now);
  }
  return answer(batch, input, schedule);
}

/**
 * A live marketing batch of a project whose marketing the reputation watch paused is refused (409
 * MARKETING_PAUSED), not queued: nothing is accepted that would wait unseen, and the caller knows at
 * once. A dry run and a transactional batch go on; so do test batches, which reach no mailbox.
 */
function refusePausedMarketing(caller: ProjectCaller, input: BatchInput): void {
  const pause = caller.project.marketing_pause;
  if (!pause || input.dryRun || caller.mode !== 'live' || input.content.emailType !== 'marketing') return;
  throw conflict(pauseExplanation(pause), 'MARKETING_PAUSED', { code: 'MARKETING_PAUSED', reason: pause.reason, paused_at: pause.at });
}

/**
 * A scheduled batch's activity records, `queued`, written at accept (BatchWrite, 1 write unit and
 * one index entry each), so that every filter of the activity list finds its recipients before it
 * goes out and after a cancel; then `records_written` on the header, so that its fan-out trusts
 * them without reading them back. An immediate batch skips this: its fan-out writes the records
 * within seconds. They live as long as a record sent at the latest time the batch can be moved to.
 */
async function writeScheduledRecords(deps: Needs<'db' | 'config'>, batch: Batch, recipients: BatchRecipient[], now: Date): Promise<void> {
  const times = { created_at: batch.created_at, updated_at: batch.created_at };
  const records = recipients.map((r, i) => storedRecipientActivity(batchRecipientActivity(batch, r, batchActivityId(batch.id, i), 'queued', times)));
  const latest = new Date(now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * 86_400_000);
  await putActivitiesInBatch(deps.db, records, ttlAfterDays(latest, deps.config.ACTIVITY_RETENTION_DAYS), ACCEPT_WRITE_LANES);
  await markRecordsWritten(deps.db, batch.id);
}

/** A scheduled batch the API could not accept whole: cancelled, and its chunks queued to turn what was written `cancelled`. */
async function withdrawScheduledBatch(deps: Needs<'db' | 'queue'>, batch: Batch, now: Date): Promise<void> {
  if (await cancelScheduledBatch(deps.db, batch.id, batch.project_id, now.toISOString())) await deps.queue.sendBatch('fanout', chunkJobs(batch));
}

/** `scheduled_at` as `/send-email` reads it (ISO 8601 or English), at most 13 days ahead. */
function resolveSchedule(input: BatchInput, caller: ProjectCaller, now: Date): ResolvedSchedule {
  const schedule = resolveScheduledAt(input.scheduledAt!, { timezone: input.timezone, projectTimezone: caller.project.timezone, now });
  if (schedule.instant.getTime() > now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * 86_400_000) {
    throw badRequest(`scheduled_at must be within ${MAX_SCHEDULE_AHEAD_DAYS} days`);
  }
  return schedule;
}

/** The success answer: the batch, its counts, and every recipient's activity id in the request's order. */
function answer(batch: Batch, input: BatchInput, schedule: ResolvedSchedule | undefined) {
  return {
    success: true,
    message: schedule ? `Batch of ${batch.recipient_count} emails scheduled for ${schedule.local} (${schedule.timezone})` : `Batch of ${batch.recipient_count} emails queued for sending`,
    batch_id: batch.id,
    status: batch.status,
    ...(schedule ? { scheduled_for: schedule.instant.toISOString(), scheduled_for_local: schedule.local, timezone: schedule.timezone } : {}),
    counts: { requested: batch.recipient_count + batch.duplicates_removed, accepted: batch.recipient_count, duplicates_removed: batch.duplicates_removed },
    recipients: input.recipients.map((r, i) => ({ email: r.email, activity_id: batchActivityId(batch.id, i) })),
    ...(input.ignoredHeaders.length > 0 ? { ignored_custom_headers: input.ignoredHeaders } : {}),
  };
}

/** The dry-run answer: the first recipients rendered, and counts; reads only, writes nothing. */
async function dryRun(
  deps: Needs<'db'>,
  caller: ProjectCaller,
  input: BatchInput,
  template: Template | undefined,
  first: ReturnType<typeof composeBatchMail>,
  preview: (i: number) => ReturnType<typeof composeBatchMail>,
  schedule: ResolvedSchedule | undefined,
) {
  const suppressed = await findSuppressed(deps.db, caller.project.id, input.recipients.map((r) => r.email));
  const shown = input.recipients.slice(0, DRY_RUN_PREVIEWS).map((r, i) => {
    const { payload } = i === 0 ? first : preview(i);
    return { to: r.email, subject: payload.subject, html_preview: payload.html.slice(0, HTML_PREVIEW_LIMIT), suppressed: suppressed.has(r.email) };
  });
  return {
    success: true,
    dry_run: true,
    test_mode: caller.mode === 'test',
    from: input.content.senderName ? `${input.content.senderName} <${input.content.sender}>` : input.content.sender,
    template_id: template?.id ?? null,
    variables_used: first.variablesUsed,
    counts: {
      requested: input.recipients.length + input.duplicatesRemoved,
      valid: input.recipients.length,
      duplicates_removed: input.duplicatesRemoved,
      suppressed: suppressed.size,
      would_send: input.recipients.length - suppressed.size,
    },
    previews: shown,
    ...(schedule ? { scheduled_for: schedule.instant.toISOString(), scheduled_for_local: schedule.local, timezone: schedule.timezone } : {}),
    ...(input.ignoredHeaders.length > 0 ? { ignored_custom_headers: input.ignoredHeaders } : {}),
  };
}
