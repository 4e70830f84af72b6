import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';

/** What reading, moving and cancelling a batch touch. */
type ManageBatchDeps = Needs<'db' | 'queue' | 'clock' | 'config'>;
import { badRequest, conflict, notFound } from '../../platform/core/errors';
import { deferAccept, resolveScheduledAt } from '..';
import { ttlAfterDays } from '../../platform/store/client';
import { scheduledBatchDueId } from '../../platform/store/keys';
import { MAX_SCHEDULE_AHEAD_DAYS } from './accept-batch';
import type { Batch } from './batch';
import { chunkJobs } from './batch-jobs';
import type { BatchRescheduleInput } from './batch-reschedule-request';
import { markBatchRecordsCancelled } from './cancel-batch-records';
import { cancelScheduledBatch, getBatch, moveScheduledBatch } from './batch-repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The batch of the caller's project, or 404 (also for another project's id). */
async function requireBatch(deps: ManageBatchDeps, caller: ProjectCaller, batchId: string | undefined): Promise<Batch> {
  if (!batchId || !UUID.test(batchId)) throw badRequest('batchId must be a uuid');
  const batch = await getBatch(deps.db, batchId.toLowerCase(), true);
  if (!batch || batch.project_id !== caller.project.id) throw notFound('Batch not found');
  return batch;
}

/** 409 for a batch that has gone out or was cancelled: part 4.4 manages a batch only before. */
function notScheduled(batch: Pick<Batch, 'id' | 'status'>) {
  const why = batch.status === 'cancelled' ? 'was cancelled' : 'has already gone out';
  return conflict(`Batch ${batch.id} ${why}; only a scheduled batch can be read, moved or cancelled here`, 'NOT_PENDING', { status: batch.status });
}

/** `GET /v1/send-batch/:batchId` (4.4): status, counts by state and the scheduled time, while the batch has not gone out. */
export async function readBatch(deps: ManageBatchDeps, caller: ProjectCaller, batchId: string | undefined) {
  const batch = await requireBatch(deps, caller, batchId);
  if (batch.status === 'sending' || batch.status === 'sent') throw notScheduled(batch);
  const state = batch.status === 'cancelled' ? 'cancelled' : 'queued';
  return {
    success: true,
    batch_id: batch.id,
    status: batch.status,
    scheduled_for: batch.scheduled_for ?? null,
    timezone: batch.timezone ?? null,
    created_at: batch.created_at,
    recipients: batch.recipient_count,
    duplicates_removed: batch.duplicates_removed,
    // Until it goes out every mail of a batch is in one state; suppression is decided when it does.
    counts: { queued: 0, cancelled: 0, [state]: batch.recipient_count },
  };
}

/** `PATCH /v1/send-batch/:batchId` (4.4): the new `scheduled_at` (as on POST) and optional `timezone`, validated by the route. */
export async function rescheduleBatch(deps: ManageBatchDeps, caller: ProjectCaller, batchId: string | undefined, request: BatchRescheduleInput) {
  const batch = await requireBatch(deps, caller, batchId);
  if (batch.status !== 'scheduled') throw notScheduled(batch);
  const now = deps.clock.now();
  const schedule = resolveScheduledAt(request.scheduledAt, { timezone: request.timezone ?? undefined, projectTimezone: caller.project.timezone, now });
  if (schedule.instant.getTime() > now.getTime() + MAX_SCHEDULE_AHEAD_DAYS * 86_400_000) throw badRequest(`scheduled_at must be within ${MAX_SCHEDULE_AHEAD_DAYS} days`, 'INVALID_INPUT');
  const scheduledFor = schedule.instant.toISOString();
  const moved = await moveScheduledBatch(deps.db, {
    batchId: batch.id,
    projectId: caller.project.id,
    scheduledFor,
    timezone: schedule.timezone,
    now: now.toISOString(),
    ttl: ttlAfterDays(schedule.instant, deps.config.ACTIVITY_RETENTION_DAYS),
  });
  if (!moved) throw notScheduled((await getBatch(deps.db, batch.id, true)) ?? batch);
  await deferAccept(deps, { id: scheduledBatchDueId(batch.id), scheduled_for: scheduledFor }, now);
  return { success: true, batch_id: batch.id, rescheduled: batch.recipient_count, scheduled_for: scheduledFor, scheduled_for_local: schedule.local, timezone: schedule.timezone };
}

/**
 * `DELETE /v1/send-batch/:batchId` (4.4): cancels a scheduled batch and marks its activity records
 * `cancelled` before answering, so every filter of the activity list shows them so at once. Its
 * chunks are queued first: should this call stop half-way, the fan-out turns the rest `cancelled`.
 */
export async function cancelBatch(deps: ManageBatchDeps, caller: ProjectCaller, batchId: string | undefined) {
  const batch = await requireBatch(deps, caller, batchId);
  if (batch.status !== 'scheduled') throw notScheduled(batch);
  if (!(await cancelScheduledBatch(deps.db, batch.id, caller.project.id, deps.clock.now().toISOString()))) {
    throw notScheduled((await getBatch(deps.db, batch.id, true)) ?? batch);
  }
  await deps.queue.sendBatch('fanout', chunkJobs(batch));
  await markBatchRecordsCancelled(deps, batch);
  return { success: true, batch_id: batch.id, cancelled: batch.recipient_count, activities_updated: batch.recipient_count };
}
