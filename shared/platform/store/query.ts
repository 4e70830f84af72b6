import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';

/** Every item a query matches, following DynamoDB's pages. */
export async function queryAll(db: Db, query: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  return queryUpTo(db, query, Infinity);
}

/** The first `cap` items a query matches, following DynamoDB's pages only as far as needed. */
export async function queryUpTo(db: Db, query: Omit<QueryCommandInput, 'ExclusiveStartKey'>, cap: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...query, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start && items.length < cap);
  return items.length > cap ? items.slice(0, cap) : items;
}

/** Every item of a partition whose sort key starts with `prefix`, following DynamoDB's pages. */
export async function queryAllByPrefix(db: Db, pk: string, prefix: string): Promise<Record<string, unknown>[]> {
  return queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
  });
}

/** How many items a query matches: a count over every page, reading no item. */
export async function countAll(db: Db, query: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Select'>): Promise<number> {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: start }));
    total += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return total;
}
