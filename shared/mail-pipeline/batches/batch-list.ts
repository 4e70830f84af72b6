import * as z from '../../platform/core/zod';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { BoundedTotal, PageRequest } from '../../platform/http/pagination';
import { readShardedPage } from '../../platform/store/sharded-list';
import type { Db } from '../../platform/store/client';
import { batchListPartitions } from '../../platform/store/keys';
import type { Batch, BatchStatus } from './batch';
import { getBatches } from './batch-repository';

/** Every status a batch header holds. */
export const BATCH_STATUSES: readonly BatchStatus[] = ['scheduled', 'sending', 'sent', 'cancelled'];

/** The filter of `GET /v1/send-batch`; an empty value filters nothing. */
export const batchListFilterFields = {
  status: z.optional(
    z.string().check(
      z.refine((v) => v === '' || BATCH_STATUSES.includes(v as BatchStatus), `status must be one of ${BATCH_STATUSES.join(', ')}`),
      z.meta({ description: 'Only batches in this status: scheduled, sending, sent or cancelled', examples: ['scheduled'] }),
    ),
  ),
};

/** A batch in the list: what `GET /v1/send-batch/{batchId}` shows, for every status, without `success`. */
export function presentBatchSummary(batch: Batch) {
  return {
    batch_id: batch.id,
    status: batch.status,
    scheduled_for: batch.scheduled_for ?? null,
    timezone: batch.timezone ?? null,
    created_at: batch.created_at,
    recipients: batch.recipient_count,
    duplicates_removed: batch.duplicates_removed,
    counts: batchCounts(batch),
  };
}

/**
 * Mails by state. Until it goes out every mail of a batch is in one state: queued while scheduled,
 * cancelled once cancelled (only a scheduled batch, or one whose fan-out could not be queued, is).
 * Once it goes out, what its fan-out's chunks have found so far (suppression is decided then).
 */
function batchCounts(batch: Batch) {
  const none = { queued: 0, suppressed: 0, cancelled: 0, failed: 0 };
  if (batch.status === 'scheduled') return { ...none, queued: batch.recipient_count };
  if (batch.status === 'cancelled') return { ...none, cancelled: batch.recipient_count };
  return {
    queued: batch.queued_count ?? 0,
    suppressed: batch.suppressed_count ?? 0,
    cancelled: batch.cancelled_count ?? 0,
    failed: batch.failed_count ?? 0,
  };
}

export type BatchSummary = ReturnType<typeof presentBatchSummary>;

export interface BatchPage extends BoundedTotal {
  data: BatchSummary[];
}

/**
 * `GET /v1/send-batch`: the batches the caller's project sent through the API in the caller's mode,
 * newest first. A status is checked on the headers themselves (it changes too often to be worth an
 * index entry): such a page reads at most FILTERED_READS_PER_ENTRY headers per batch shown.
 */
export async function listBatches(db: Db, caller: ProjectCaller, status: BatchStatus | undefined, page: PageRequest, after?: string): Promise<BatchPage> {
  const listed = await readShardedPage<BatchSummary>(db, {
    partitions: batchListPartitions(caller.project.id, caller.mode),
    ascending: false,
    page,
    after,
    load: async (entries) => (await getBatches(db, entries.map((e) => String(e.pk).slice('BATCH#'.length)))).map((b) => (b ? presentBatchSummary(b) : undefined)),
    ...(status ? { keep: (batch: BatchSummary) => batch.status === status } : {}),
  });
  const { rows, ...total } = listed;
  return { data: rows, ...total };
}
