import { BatchWriteCommand, type BatchWriteCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';

/** DynamoDB's limit of items per BatchWriteItem request. */
export const BATCH_WRITE_LIMIT = 25;

/** Requests in flight at once: enough to keep a 500-item chunk well under a second, few enough not to throttle. */
const PARALLEL_REQUESTS = 4;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Some items were still unprocessed when the retries ran out. */
export class BatchWriteIncompleteError extends Error {
  constructor(readonly unprocessed: number) {
    super(`BatchWrite left ${unprocessed} items unprocessed after retrying`);
    this.name = 'BatchWriteIncompleteError';
  }
}

/**
 * Puts every item, 25 to a request, a few requests at a time, asking again with backoff (full
 * jitter) for the items DynamoDB hands back unprocessed under load. Unconditional: callers make
 * sure that overwriting is harmless (BatchWrite takes no condition).
 */
export async function batchPutAll(db: Db, items: readonly Record<string, unknown>[], retries = 6): Promise<void> {
  const groups: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH_WRITE_LIMIT) groups.push(items.slice(i, i + BATCH_WRITE_LIMIT));
  const writeGroup = async (group: Record<string, unknown>[]) => {
    let pending = group.map((Item) => ({ PutRequest: { Item } }));
    for (let round = 0; pending.length > 0; round++) {
      if (round > retries) throw new BatchWriteIncompleteError(pending.length);
      if (round > 0) await sleep(Math.random() * 25 * 2 ** round);
      const out: BatchWriteCommandOutput = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
      pending = (out.UnprocessedItems?.[db.tableName] as typeof pending | undefined) ?? [];
    }
  };
  for (let i = 0; i < groups.length; i += PARALLEL_REQUESTS) await Promise.all(groups.slice(i, i + PARALLEL_REQUESTS).map(writeGroup));
}
