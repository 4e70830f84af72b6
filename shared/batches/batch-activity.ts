import type { Activity } from '../activity/activity';
import { batchRecipientActivity } from './batch-record';
import type { Services } from '../container';
import { AppError } from '../errors';
import type { BlobStore } from '../ports';
import type { Db } from '../store/client';
import { findTemplate } from '../templates/template-service';
import { batchOfActivity } from './batch-ids';
import { composeBatchMail } from './batch-mail';
import { getBatch, loadBatchChunk, loadBatchContent } from './batch-repository';

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
  const status = batch.status === 'cancelled' ? 'cancelled' : 'queued';
  return batchRecipientActivity(batch, recipient, activityId.toLowerCase(), status, { created_at: batch.created_at, updated_at: batch.updated_at });
}


/**
 * The HTML a batch mail will be sent with, before the worker has sent it (and stored its body):
 * rendered on read, exactly as the batch-send worker renders it, from the batch's content and the
 * recipient's data already in S3. Costs reads only (the header, two objects, the template if any);
 * nothing is written per recipient. Undefined for a mail not of a batch of `projectId`, or one
 * whose data cannot be rendered (it will fail with `template_error`).
 */
export async function queuedBatchMailHtml(deps: Pick<Services, 'db' | 'blobs' | 'config' | 'tokenSecret'>, projectId: string, activityId: string): Promise<string | undefined> {
  const place = batchOfActivity(activityId);
  if (!place) return undefined;
  const batch = await getBatch(deps.db, place.batchId);
  if (!batch || batch.project_id !== projectId || place.index >= batch.recipient_count) return undefined;
  const [recipients, content, secret] = await Promise.all([
    loadBatchChunk(deps.blobs, projectId, batch.id, Math.floor(place.index / batch.chunk_size)),
    loadBatchContent(deps.blobs, projectId, batch.id),
    deps.tokenSecret(),
  ]);
  const recipient = recipients[place.index % batch.chunk_size];
  const template = content.templateId ? await findTemplate(deps.db, projectId, content.templateId) : undefined;
  if (!recipient || (content.templateId && !template)) return undefined;
  try {
    return composeBatchMail(deps, { content, template, recipient, activityId: activityId.toLowerCase(), projectId, secret }).payload.html;
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return undefined;
    throw error;
  }
}
