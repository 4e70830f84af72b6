import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailure, writtenUnlessConditionFails } from '../errors';
import { ttlAfterDays, type Db } from '../store/client';
import { monthlyUsageKey } from '../store/keys';
import { USAGE_RETENTION_DAYS } from './monthly-quota';

/**
 * The per-project, per-month send counter (`sent`). Only projects with a limited quota have one:
 * reserving a unit is a conditional UpdateItem (1 WCU), so the count can never pass the quota, even
 * with many workers sending at once.
 */

/**
 * Takes one unit of the month's quota; false (and nothing written) when `quota` units are already
 * used. A failed condition still costs its write unit.
 */
export async function reserveSend(db: Db, projectId: string, month: string, quota: number, now: Date): Promise<boolean> {
  // With a quota of 0 the condition below would let the first mail through (no counter yet).
  if (quota <= 0) return false;
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: monthlyUsageKey(projectId, month),
        UpdateExpression: 'ADD sent :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(sent) OR sent < :quota',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':quota': quota, ':ttl': ttlAfterDays(now, USAGE_RETENTION_DAYS) },
      }),
    ),
  );
}

/** Gives back a unit taken by `reserveSend` for a mail that did not go out; never below zero. */
export async function releaseSend(db: Db, projectId: string, month: string): Promise<void> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: monthlyUsageKey(projectId, month),
        UpdateExpression: 'ADD sent :minus',
        ConditionExpression: 'sent > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailure(error)) throw error;
  }
}

/** How many mails of a project the month's counter holds (0 without a counter). */
export async function getMonthlyUsage(db: Db, projectId: string, month: string): Promise<number> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: monthlyUsageKey(projectId, month), ConsistentRead: true }));
  return typeof out.Item?.sent === 'number' ? out.Item.sent : 0;
}
