import type { Activity } from '../activity/activity';
import { batchRecipientActivity } from './batch-record';
import type { Needs } from '../../platform/core/dependencies';
import { AppError } from '../../platform/core/errors';
import type { BlobStore } from '../../platform/core/ports';
import type { Db } from '../../platform/store/client';
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
 * The activities with the subjects their records leave to their batch (a long one, batch-record.ts)
 * filled in: one read per distinct batch, none when every record has its subject. A batch already
 * expired (it lives as long as its mails, give or take the fan-out's minutes) leaves `""`.
 */
export async function withBatchSubjects(db: Db, activities: readonly Activity[]): Promise<Activity[]> {
  const batchOf = (a: Activity) => batchOfActivity(a.id)?.batchId ?? '';
  const batchIds = [...new Set(activities.filter((a) => a.subject === undefined).map(batchOf))].filter(Boolean);
  if (batchIds.length === 0) return [...activities];
  const subjects = new Map(await Promise.all(batchIds.map(async (id) => [id, (await getBatch(db, id))?.subject] as const)));
  return activities.map((a) => (a.subject === undefined ? { ...a, subject: subjects.get(batchOf(a)) ?? '' } : a));
}

/**
 * The HTML a batch mail will be sent with, before the worker has sent it (and stored its body):
 * rendered on read, exactly as the batch-send worker renders it, from the batch's content and the
 * recipient's data already in S3. Costs reads only (the header, two objects, the template if any);
 * nothing is written per recipient. Undefined for a mail not of a batch of `projectId`, or one
 * whose data cannot be rendered (it will fail with `template_error`).
 */
export async function queuedBatchMailHtml(deps: Needs<'db' | 'blobs' | 'config' | 'tokenSecret'>, projectId: string, activityId: string): Promise<string | undefined> {
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
