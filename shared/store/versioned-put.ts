import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionFailedError, isConditionalCheckFailure } from './conditional-write';
import type { Db } from './client';

/**
 * Writes an item whole, conditionally: a new item must not exist yet (`'new'`), an existing one must
 * still carry `version = expectedVersion`. A lost race becomes ConditionFailedError.
 */
export async function versionedPut(db: Db, item: Record<string, unknown>, expectedVersion: number | 'new', what: string): Promise<void> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: item,
        ConditionExpression: expectedVersion === 'new' ? 'attribute_not_exists(pk)' : 'version = :v',
        ExpressionAttributeValues: expectedVersion === 'new' ? undefined : { ':v': expectedVersion },
      }),
    );
  } catch (error) {
    if (isConditionalCheckFailure(error)) throw new ConditionFailedError(`${what} changed concurrently`, { cause: error });
    throw error;
  }
}
