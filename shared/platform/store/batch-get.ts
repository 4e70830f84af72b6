import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';

/** DynamoDB's limit of keys per BatchGetItem request. */
export const BATCH_GET_LIMIT = 100;

/** How often unprocessed keys are asked for again, and the first wait (it doubles each round). */
export interface BatchGetRetry {
  readonly retries: number;
  readonly baseDelayMs: number;
}

// At most about 3 s of waiting in all (1.6 s on average) before giving up: long enough for a
// throttled partition to recover, short against a worker's or an API call's timeout.
const DEFAULT_RETRY: BatchGetRetry = { retries: 6, baseDelayMs: 25 };

/** Some keys were still unprocessed when the retries ran out: the caller must not act on a partial answer. */
export class BatchGetIncompleteError extends Error {
  constructor(readonly unprocessed: number) {
    super(`BatchGet left ${unprocessed} keys unprocessed after retrying`);
    this.name = 'BatchGetIncompleteError';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Full jitter: a random wait up to the doubled delay, so that throttled callers do not retry in step. */
const backoff = (retry: BatchGetRetry, round: number) => Math.random() * retry.baseDelayMs * 2 ** round;

/**
 * The items stored under the given keys, in no particular order (an absent key yields nothing).
 * Asks 100 keys per request, each key once, and asks again with exponential backoff for the keys
 * DynamoDB hands back unprocessed under load; throws BatchGetIncompleteError if some remain.
 * `consistentRead` for read-then-write-conditionally callers (lead upserts).
 */
export async function batchGetAll(
  db: Db,
  keys: readonly Record<string, unknown>[],
  retry: BatchGetRetry = DEFAULT_RETRY,
  options: { consistentRead?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  // BatchGetItem refuses a request that names a key twice.
  const unique = [...new Map(keys.map((key) => [JSON.stringify(key), key])).values()];
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < unique.length; i += BATCH_GET_LIMIT) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + BATCH_GET_LIMIT);
    for (let round = 0; pending.length > 0; round++) {
      if (round > retry.retries) throw new BatchGetIncompleteError(pending.length);
      if (round > 0) await sleep(backoff(retry, round));
      const out: BatchGetCommandOutput = await db.doc.send(new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: pending, ConsistentRead: options.consistentRead } } }));
      items.push(...(out.Responses?.[db.tableName] ?? []));
      pending = (out.UnprocessedKeys?.[db.tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return items;
}
