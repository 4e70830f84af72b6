import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { applyTransition } from '../../platform/store/aggregate';
import { batchLifecycle } from '../../platform/store/aggregates/scheduling';
import { conditionalWrite, writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import type { BlobStore } from '../../platform/core/ports';
import { batchGetAll } from '../../platform/store/batch-get';
import { stripKeys, type Db } from '../../platform/store/client';
import { batchKey, batchListIndex, scheduledBatchDueIndex } from '../../platform/store/keys';
import type { Batch, BatchContent, BatchRecipient } from './batch';

const INDEX_ATTRIBUTES = ['gsi5pk', 'gsi5sk', 'gsi6pk', 'gsi6sk', 'chunks_started'];

/**
 * Writes a new batch header (1 WCU); a scheduled one gets its due-index entry (1 more), and one sent
 * through the API its entry in its project's list (1 more; a campaign's waves are not listed).
 */
export async function putBatch(db: Db, batch: Batch, ttl: number): Promise<boolean> {
  const due = batch.status === 'scheduled' && batch.scheduled_for ? scheduledBatchDueIndex(batch.scheduled_for, batch.id) : {};
  const listed = batch.campaign_id === undefined ? batchListIndex(batch) : {};
  return writtenUnlessConditionFails(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...batchKey(batch.id), ...batch, ...due, ...listed, ttl },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** The batch header, or undefined; `consistent` for workers and management, which must see the latest change. */
export async function getBatch(db: Db, batchId: string, consistent = false): Promise<Batch | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: batchKey(batchId), ConsistentRead: consistent }));
  return out.Item ? batchOfItem(out.Item) : undefined;
}

/** The batch headers of the given ids, in their order (one gone meanwhile is undefined): one BatchGet per hundred. */
export async function getBatches(db: Db, batchIds: readonly string[]): Promise<(Batch | undefined)[]> {
  const items = await batchGetAll(db, batchIds.map((id) => ({ ...batchKey(id) })));
  const byId = new Map(items.map((item) => [String(item.id), batchOfItem(item)]));
  return batchIds.map((id) => byId.get(id));
}

/** A stored header without its key, index and fan-out bookkeeping attributes. */
function batchOfItem(stored: Record<string, unknown>): Batch {
  const item = stripKeys<Record<string, unknown>>(stored);
  for (const name of INDEX_ATTRIBUTES) delete item[name];
  if (item.chunks_done instanceof Set) item.chunks_done = [...item.chunks_done].map(Number);
  return item as unknown as Batch;
}

/** Runs a conditional update; the new item, or undefined when the condition failed. */
async function conditionalUpdate(db: Db, batchId: string, input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>) {
  const outcome = await conditionalWrite(db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: batchKey(batchId), ReturnValues: 'ALL_NEW', ...input })));
  return outcome.written ? outcome.output.Attributes : undefined;
}

/**
 * Moves a batch from `scheduled` to `sending` and out of the due index (its declared `start`), once: conditional on the
 * time the fire message names, so the message of a moved batch never starts it. False otherwise.
 */
export function startScheduledBatch(db: Db, batchId: string, scheduledFor: string, now: string): Promise<boolean> {
  return applyTransition(db, batchLifecycle, 'start', batchKey(batchId), { updated_at: now }, { expression: 'scheduled_for = :for', values: { ':for': scheduledFor } });
}

/** Cancels a scheduled batch of `projectId` (its declared `cancelScheduled`); false when it was not (or no longer) scheduled. */
export function cancelScheduledBatch(db: Db, batchId: string, projectId: string, now: string): Promise<boolean> {
  return applyTransition(db, batchLifecycle, 'cancelScheduled', batchKey(batchId), { updated_at: now }, { expression: 'project_id = :p', values: { ':p': projectId } });
}

/** Notes on a batch that the API wrote every recipient's record at accept (a scheduled batch). */
export async function markRecordsWritten(db: Db, batchId: string): Promise<void> {
  await db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: batchKey(batchId), UpdateExpression: 'SET records_written = :t', ExpressionAttributeValues: { ':t': true } }));
}

/** Moves a scheduled batch of `projectId` to a new time; false when it was not (or no longer) scheduled. */
export async function moveScheduledBatch(
  db: Db,
  input: { batchId: string; projectId: string; scheduledFor: string; timezone: string; now: string; ttl: number },
): Promise<boolean> {
  const due = scheduledBatchDueIndex(input.scheduledFor, input.batchId);
  const item = await conditionalUpdate(db, input.batchId, {
    UpdateExpression: 'SET scheduled_for = :for, #tz = :tz, gsi5pk = :dpk, gsi5sk = :dsk, #ttl = :ttl, updated_at = :now',
    ConditionExpression: '#s = :scheduled AND project_id = :p',
    ExpressionAttributeNames: { '#s': 'status', '#tz': 'timezone', '#ttl': 'ttl' },
    ExpressionAttributeValues: {
      ':for': input.scheduledFor,
      ':tz': input.timezone,
      ':dpk': due.gsi5pk,
      ':dsk': due.gsi5sk,
      ':ttl': input.ttl,
      ':now': input.now,
      ':scheduled': 'scheduled',
      ':p': input.projectId,
    },
  });
  return item !== undefined;
}

/**
 * Notes that the fan-out has begun chunk `chunk`; true when an earlier delivery had begun it
 * already (a redelivery, or SQS's occasional duplicate), which must then check what exists.
 */
export async function markChunkStarted(db: Db, batchId: string, chunk: number): Promise<boolean> {
  const out = await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: batchKey(batchId),
      UpdateExpression: 'ADD chunks_started :c',
      ExpressionAttributeValues: { ':c': new Set([chunk]) },
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  const old = out.Attributes?.chunks_started as Set<number> | undefined;
  return old !== undefined && old.has(chunk);
}

/** What the fan-out found in one chunk. */
export interface ChunkCounts {
  queued: number;
  suppressed: number;
  cancelled: number;
  /** Recipients whose record or job could not be written as they are (unwritable-recipient.ts). */
  failed: number;
}

/**
 * Records a finished chunk and its counts, once per chunk; the last chunk moves a sending batch to
 * `sent` (every mail is queued). Returns false when the chunk was recorded before.
 */
export async function finishChunk(db: Db, batchId: string, chunk: number, counts: ChunkCounts, now: string): Promise<boolean> {
  const item = await conditionalUpdate(db, batchId, {
    UpdateExpression: 'ADD chunks_done :c, queued_count :q, suppressed_count :su, cancelled_count :ca, failed_count :f SET updated_at = :now',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(chunks_done) OR NOT contains(chunks_done, :n))',
    ExpressionAttributeValues: { ':c': new Set([chunk]), ':n': chunk, ':q': counts.queued, ':su': counts.suppressed, ':ca': counts.cancelled, ':f': counts.failed, ':now': now },
  });
  if (!item) return false;
  const done = (item.chunks_done as Set<number>).size;
  if (done >= Number(item.chunk_count) && item.status === 'sending') {
    await applyTransition(db, batchLifecycle, 'finish', batchKey(batchId));
  }
  return true;
}

/** Blob keys of a batch: its content once, its recipients in chunks. */
const contentBlobKey = (projectId: string, batchId: string) => `batches/${projectId}/${batchId}/content.json`;
const chunkBlobKey = (projectId: string, batchId: string, chunk: number) => `batches/${projectId}/${batchId}/chunk-${chunk}.json`;

/** Stores the content and the recipient chunks (parallel puts: a 10,000-recipient batch is 21 objects). */
export async function putBatchBlobs(blobs: BlobStore, batch: Pick<Batch, 'id' | 'project_id' | 'chunk_size'>, content: BatchContent, recipients: BatchRecipient[]): Promise<void> {
  const puts = [blobs.put(contentBlobKey(batch.project_id, batch.id), Buffer.from(JSON.stringify(content)))];
  for (let chunk = 0; chunk * batch.chunk_size < recipients.length; chunk++) {
    const slice = recipients.slice(chunk * batch.chunk_size, (chunk + 1) * batch.chunk_size);
    puts.push(blobs.put(chunkBlobKey(batch.project_id, batch.id, chunk), Buffer.from(JSON.stringify(slice))));
  }
  await Promise.all(puts);
}

/** The batch's shared content. */
export async function loadBatchContent(blobs: BlobStore, projectId: string, batchId: string): Promise<BatchContent> {
  return JSON.parse((await blobs.get(contentBlobKey(projectId, batchId))).toString('utf8')) as BatchContent;
}

/** The recipients of one chunk, in order (recipient `chunk * chunk_size + i` is entry i). */
export async function loadBatchChunk(blobs: BlobStore, projectId: string, batchId: string, chunk: number): Promise<BatchRecipient[]> {
  return JSON.parse((await blobs.get(chunkBlobKey(projectId, batchId, chunk))).toString('utf8')) as BatchRecipient[];
}

/** Cancels a batch whose fan-out could not be queued at accept time (the caller got 502): its declared `cancelAccepted`. */
export async function cancelAcceptedBatch(db: Db, batchId: string, now: string): Promise<void> {
  await applyTransition(db, batchLifecycle, 'cancelAccepted', batchKey(batchId), { updated_at: now });
}
