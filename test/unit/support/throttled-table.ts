import { BatchGetCommand, type BatchGetCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AwsStub } from 'aws-sdk-client-mock';

/**
 * Serves BatchGet from `items` (keyed by pk and sk) the way a throttled table does: the first
 * `times` answers hand back the first `deferred` keys asked for as unprocessed.
 */
export function serveBatchGetThrottled(
  doc: AwsStub<any, any, any>,
  tableName: string,
  items: readonly Record<string, unknown>[],
  throttling: { times: number; deferred: number },
): void {
  const stored = new Map(items.map((item) => [`${item.pk}|${item.sk}`, item]));
  let answers = 0;
  doc.on(BatchGetCommand).callsFake((input: BatchGetCommandInput) => {
    const asked = (input.RequestItems?.[tableName]?.Keys ?? []) as Record<string, unknown>[];
    const deferred = answers++ < throttling.times ? asked.slice(0, throttling.deferred) : [];
    const served = asked.slice(deferred.length).flatMap((k) => stored.get(`${k.pk}|${k.sk}`) ?? []);
    return { Responses: { [tableName]: served }, ...(deferred.length > 0 ? { UnprocessedKeys: { [tableName]: { Keys: deferred } } } : {}) };
  });
}
