import type { Activity } from '../activity/activity';
import type { BlobStore } from '../ports';
import type { Db } from '../store/client';
import { batchOfActivity } from './batch-ids';
import { getBatch, loadBatchChunk } from './batch-repository';

/**
 * The activity of a batch recipient whose record the fan-out has not written yet, derived from
 * the batch (its id names the batch and the recipient's place): `queued`, or `cancelled` for a
 * cancelled batch. Costs a read of the header and of one recipient chunk, and only in the seconds
 * before the record exists. Undefined when the id is not of a batch of `projectId`.
 */
export async function derivedBatchActivity(db: Db, blobs: BlobStore, projectId: string, activityId: string): Promise<Activity | undefined> {
  const place = batchOfActivity(activityId);
  if (!place) return undefined;
  const batch = await getBatch(db, place.batchId);
  if (!batch || batch.project_id !== projectId || place.index >= batch.recipient_count) return undefined;
  const chunk = Math.floor(place.index / batch.chunk_size);
  const recipient = (await loadBatchChunk(blobs, projectId, batch.id, chunk))[place.index % batch.chunk_size];
  if (!recipient) return undefined;
  return {
    id: activityId.toLowerCase(),
    project_id: projectId,
    created_at: batch.created_at,
    updated_at: batch.updated_at,
    email_type: batch.email_type,
    template_id: batch.template_id,
    batch_id: batch.id,
    metadata: recipient.metadata,
    subject: batch.subject,
    sender_email: batch.sender_email,
    sender_name: batch.sender_name,
    recipient_primary: recipient.email,
    recipient_count: 1,
    current_status: batch.status === 'cancelled' ? 'cancelled' : 'queued',
    is_test: batch.mode === 'test',
    environment: batch.environment,
  };
}
