import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';

/** DynamoDB's limit of requests per BatchWriteItem call. */
export const BATCH_WRITE_LIMIT = 25;

/** One write of a batch: a whole item to put, or a key to delete. */
export type BatchWriteRequest = { put: Record<string, unknown> } | { delete: Record<string, unknown> };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The writes DynamoDB left unprocessed after every retry. */
export class BatchWriteIncompleteError extends Error {
  constructor(readonly unprocessed: number) {
    super(`BatchWrite left ${unprocessed} requests unprocessed after retrying`);
    this.name = 'BatchWriteIncompleteError';
  }
}

/**
 * Writes unconditional puts and deletes, 25 per request, `parallel` requests at a time, and asks again
 * with backoff for what DynamoDB hands back unprocessed; throws if some remain after 8 rounds.
 */
export async function batchWriteAll(db: Db, requests: readonly BatchWriteRequest[], parallel = 8): Promise<void> {
  const chunks: BatchWriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH_WRITE_LIMIT) chunks.push(requests.slice(i, i + BATCH_WRITE_LIMIT));
  let next = 0;
  const lane = async () => {
    while (next < chunks.length) await writeChunk(db, chunks[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, chunks.length) }, lane));
}

async function writeChunk(db: Db, chunk: BatchWriteRequest[]): Promise<void> {
  let pending: unknown[] = chunk.map((r) => ('put' in r ? { PutRequest: { Item: r.put } } : { DeleteRequest: { Key: r.delete } }));
  for (let round = 0; pending.length > 0; round++) {
    if (round > 8) throw new BatchWriteIncompleteError(pending.length);
    if (round > 0) await sleep(Math.random() * 25 * 2 ** round);
    const out: BatchWriteCommandOutput = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending as never } }));
    pending = out.UnprocessedItems?.[db.tableName] ?? [];
  }
}

/** Puts every item (unconditionally: callers make sure overwriting is harmless), as batchWriteAll does. */
export function batchPutAll(db: Db, items: readonly Record<string, unknown>[], parallel = 4): Promise<void> {
  return batchWriteAll(db, items.map((put) => ({ put })), parallel);
}
