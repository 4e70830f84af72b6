import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import { ttlAfterDays, type Db } from '../../platform/store/client';
import { MONTHLY_USAGE_SHARDS, monthlyUsageKey } from '../../platform/store/keys';
import { USAGE_RETENTION_DAYS } from './monthly-quota';

/**
 * The per-project, per-month send counter (`sent`), in MONTHLY_USAGE_SHARDS shards so that a busy
 * project's mails do not all write one partition. Only projects with a limited quota have one.
 * Each shard holds an even share of the quota and takes a unit with a conditional UpdateItem
 * (1 WCU), so the shards together can never pass the quota, even with many workers sending at once;
 * a mail is refused only when every shard is full, so the whole quota is usable.
 */

/** The share of `quota` that shard `shard` holds: the quota split as evenly as whole numbers allow. */
export function shardQuota(quota: number, shard: number): number {
  return Math.floor(quota / MONTHLY_USAGE_SHARDS) + (shard < quota % MONTHLY_USAGE_SHARDS ? 1 : 0);
}

/**
 * Takes one unit of the month's quota from a shard with room, starting at a random one; returns that
 * shard (to give the unit back to), or undefined (and nothing written) when `quota` units are already
 * used. A failed condition still costs its write unit, so a nearly used-up month costs a few more.
 */
export async function reserveSend(db: Db, projectId: string, month: string, quota: number, now: Date, random: () => number = Math.random): Promise<number | undefined> {
  const first = Math.floor(random() * MONTHLY_USAGE_SHARDS);
  for (let i = 0; i < MONTHLY_USAGE_SHARDS; i++) {
    const shard = (first + i) % MONTHLY_USAGE_SHARDS;
    const share = shardQuota(quota, shard);
    // With a share of 0 the condition below would let the first mail through (no counter yet).
    if (share <= 0) continue;
    const taken = await writtenUnlessConditionFails(
      db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: monthlyUsageKey(projectId, month, shard),
          UpdateExpression: 'ADD sent :one SET #ttl = if_not_exists(#ttl, :ttl)',
          ConditionExpression: 'attribute_not_exists(sent) OR sent < :quota',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':quota': share, ':ttl': ttlAfterDays(now, USAGE_RETENTION_DAYS) },
        }),
      ),
    );
    if (taken) return shard;
  }
  return undefined;
}

/** Gives back a unit taken by `reserveSend` from `shard` for a mail that did not go out; never below zero. */
export async function releaseSend(db: Db, projectId: string, month: string, shard: number): Promise<void> {
  // A counter already at zero has nothing to give back: the lost condition is the answer.
  await writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: monthlyUsageKey(projectId, month, shard),
        UpdateExpression: 'ADD sent :minus',
        ConditionExpression: 'sent > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    ),
  );
}

/** How many mails of a project the month's counter holds, over every shard (0 without a counter). */
export async function getMonthlyUsage(db: Db, projectId: string, month: string): Promise<number> {
  const shards = await Promise.all(
    Array.from({ length: MONTHLY_USAGE_SHARDS }, (_, shard) =>
      db.doc.send(new GetCommand({ TableName: db.tableName, Key: monthlyUsageKey(projectId, month, shard), ConsistentRead: true })),
    ),
  );
  return shards.reduce((sum, out) => sum + (typeof out.Item?.sent === 'number' ? out.Item.sent : 0), 0);
}
