import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { writtenUnlessConditionFails } from './conditional-write';

/**
 * Writes an item whole, conditionally: a new item must not exist yet (`'new'`), an existing one must
 * still carry `version = expectedVersion`. True when written; false when the race was lost (the
 * caller re-reads, gives up, or answers `concurrentChange()`).
 */
export function versionedPut(db: Db, item: Record<string, unknown>, expectedVersion: number | 'new'): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: item,
        ConditionExpression: expectedVersion === 'new' ? 'attribute_not_exists(pk)' : 'version = :v',
        ExpressionAttributeValues: expectedVersion === 'new' ? undefined : { ':v': expectedVersion },
      }),
    ),
  );
}
