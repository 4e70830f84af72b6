import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../../../platform/store/client';

/**
 * The index partitions a campaign walks in sort-key order, a page at a time from a saved position:
 * its audience (the project's lead list, a segment's memberships, an earlier campaign's activity
 * entries for a follow-up) and its own activity entries (the report and the export).
 */

/** A partition of the table or of an index, by its key attribute names. */
export interface IndexPartition {
  index?: string;
  pkName: string;
  skName: string;
  pk: string;
}

/**
 * One Query page of up to `limit` entries of the partition after `start` (DynamoDB's key of the
 * last entry read; the partition's beginning when undefined), oldest first, only sort keys at or
 * below `upTo` when given. `next` is undefined once the partition is read whole.
 */
export async function readIndexPage(
  db: Db,
  part: IndexPartition,
  page: { start?: Record<string, unknown>; limit: number; upTo?: string },
): Promise<{ items: Record<string, unknown>[]; next?: Record<string, unknown> }> {
  const bounded = page.upTo !== undefined;
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: part.index,
      KeyConditionExpression: bounded ? '#pk = :pk AND #sk <= :upTo' : '#pk = :pk',
      ExpressionAttributeNames: bounded ? { '#pk': part.pkName, '#sk': part.skName } : { '#pk': part.pkName },
      ExpressionAttributeValues: bounded ? { ':pk': part.pk, ':upTo': page.upTo } : { ':pk': part.pk },
      Limit: page.limit,
      ExclusiveStartKey: page.start,
    }),
  );
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}
