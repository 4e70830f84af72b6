/**
 * The one idiom for a conditional write that lost: the gateway awaits the write through
 * `writtenUnlessConditionFails` and answers true (written) or false (its condition did not hold,
 * because another caller moved the item first or it is already in its final state); a write whose
 * answer matters (ReturnValues, or the standing item a refused write returns) goes through
 * `conditionalWrite`, the same idiom with the output kept. Callers decide what a lost condition
 * means; nothing else catches ConditionalCheckFailedException. A transaction's cancellation is
 * transact.ts's `transactWrite` outcome.
 */

/** True when an AWS SDK error is DynamoDB's ConditionalCheckFailedException. */
export function isConditionalCheckFailure(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}

/**
 * How a conditional write ended: written with the command's output, or refused with the item that
 * stands in the way when the command asked for it (ReturnValuesOnConditionCheckFailure ALL_OLD, in
 * raw attribute-value form).
 */
export type ConditionalOutcome<T> = { readonly written: true; readonly output: T } | { readonly written: false; readonly standing?: Record<string, unknown> };

/** Awaits a conditional write and answers how it ended; errors other than a failed condition throw. */
export async function conditionalWrite<T>(write: Promise<T>): Promise<ConditionalOutcome<T>> {
  try {
    return { written: true, output: await write };
  } catch (error) {
    if (!isConditionalCheckFailure(error)) throw error;
    return { written: false, standing: (error as { Item?: Record<string, unknown> }).Item };
  }
}

/** Awaits a conditional write: true when it was written, false when its condition failed; other errors throw. */
export async function writtenUnlessConditionFails(write: Promise<unknown>): Promise<boolean> {
  return (await conditionalWrite(write)).written;
}
