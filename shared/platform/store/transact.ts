import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';

/** DynamoDB's limit of actions per TransactWriteItems request. */
export const TRANSACTION_LIMIT = 100;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** How a transaction ended: written, or cancelled with the indexes whose condition failed (empty: a conflict with another transaction). */
export type TransactOutcome = { written: true } | { written: false; failedConditions: number[] };

/**
 * Runs one transaction. A cancellation is an answer, not an error: the caller learns which actions'
 * conditions failed (and re-reads, drops them or gives up), or that another transaction held an item
 * (`failedConditions` empty: try again). Other errors throw.
 */
export async function transactWrite(db: Db, items: readonly TransactItem[]): Promise<TransactOutcome> {
  if (items.length === 0) return { written: true };
  try {
    await db.doc.send(new TransactWriteCommand({ TransactItems: [...items] }));
    return { written: true };
  } catch (error) {
    const named = error as { name?: string; CancellationReasons?: { Code?: string }[] };
    if (named.name !== 'TransactionCanceledException') throw error;
    const reasons = named.CancellationReasons ?? [];
    const failedConditions = reasons.flatMap((r, i) => (r?.Code === 'ConditionalCheckFailed' ? [i] : []));
    return { written: false, failedConditions };
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Full-jitter backoff before attempt `attempt` (1-based) of a contended write: up to 20 ms, doubling. */
export function contentionBackoff(attempt: number): Promise<void> {
  return sleep(Math.random() * 20 * 2 ** Math.min(attempt, 7));
}
