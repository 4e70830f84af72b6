import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ListQuery } from '../../platform/store/bounded-list';
import type { Db } from '../../platform/store/client';
import { webhookDeliveryPartition } from '../../platform/store/keys';

/**
 * The gateway of the webhook delivery log: one item per attempt under one of the project's 32
 * shard partitions (delivery-log.ts builds the items and reads the pages).
 */

/** Writes one attempt's item (delivery-log.ts keeps it under 1 KB: 1 write unit). */
export async function putDeliveryLogItem(db: Db, item: Record<string, unknown>): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: item }));
}

/** The stored item of one attempt of a delivery of the project, or undefined. */
export async function getDeliveryLogItem(db: Db, projectId: string, deliveryId: string, sk: string): Promise<Record<string, unknown> | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: { pk: webhookDeliveryPartition(projectId, deliveryId), sk } }));
  return out.Item;
}

/** The Query of one shard partition of the log, newest first, at most `after` (inclusive; the merge leaves `after` itself out). */
export function deliveryLogShardQuery(db: Db, pk: string, after: string | undefined): ListQuery {
  return {
    TableName: db.tableName,
    KeyConditionExpression: after === undefined ? 'pk = :pk' : 'pk = :pk AND sk <= :after',
    ExpressionAttributeValues: { ':pk': pk, ...(after === undefined ? {} : { ':after': after }) },
    ScanIndexForward: false,
  };
}
