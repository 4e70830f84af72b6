/**
 * The one idiom for a conditional write that lost: the gateway awaits the write through
 * `writtenUnlessConditionFails` and answers true (written) or false (its condition did not hold,
 * because another caller moved the item first or it is already in its final state). Callers decide
 * what a lost condition means; nothing else catches ConditionalCheckFailedException.
 */

/**
 * A failed conditional write, translated at the repository edge. Services decide what it means
 * (a lost race, an item that is already in its final state).
 */
export class ConditionFailedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConditionFailedError';
  }
}

/** True when an AWS SDK error is DynamoDB's ConditionalCheckFailedException. */
export function isConditionalCheckFailure(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

/** Awaits a conditional write: true when it was written, false when its condition failed; other errors throw. */
export async function writtenUnlessConditionFails(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}
