import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../../platform/store/client';
import { DOMAIN_STAT_SK_PREFIX, domainStatPartitions, domainStatRange, projectStatPartitions, projectStatRange, type ItemKey } from '../../platform/store/keys';
import { queryAll, queryAllByPrefix } from '../../platform/store/query';

/**
 * The stats gateway: the sharded counter items, a sender domain's per day (`DSTAT#<p>#<shard>`) and
 * a project's per hour and mode (`PSTAT#...`). Writes only ADD (and set the item's descriptive
 * fields); reads answer the stored items of every shard, which domain-stats.ts and project-stats.ts sum.
 */

/** One counter write: the shard item's key, the fields it adds to and the fields it sets. */
export interface CounterWrite {
  key: ItemKey;
  counts: Record<string, number>;
  set: Record<string, string>;
}

/** One UpdateItem (1 write unit): ADD to the counts, SET the descriptive fields (and the ttl, when given). */
export async function addToStatCounter(db: Db, w: CounterWrite, ttl?: number): Promise<void> {
  const fields = Object.entries(w.counts);
  const sets = Object.entries(w.set);
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: w.key,
      UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :v${i}`).join(', ')} SET ${sets.map((_, i) => `#s${i} = :s${i}`).join(', ')}${ttl ? ', #ttl = :ttl' : ''}`,
      ExpressionAttributeNames: {
        ...Object.fromEntries(fields.map(([f], i) => [`#f${i}`, f])),
        ...Object.fromEntries(sets.map(([f], i) => [`#s${i}`, f])),
        ...(ttl ? { '#ttl': 'ttl' } : {}),
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])),
        ...Object.fromEntries(sets.map(([, v], i) => [`:s${i}`, v])),
        ...(ttl ? { ':ttl': ttl } : {}),
      },
    }),
  );
}

/** Every shard's counter items of a sender domain for the days from `fromDay` to `toDay` (inclusive). */
export async function domainDayItems(db: Db, projectId: string, domain: string, fromDay: string, toDay: string): Promise<Record<string, unknown>[]> {
  return rangeOnEveryShard(db, domainStatPartitions(projectId), domainStatRange(domain, fromDay, toDay));
}

/** Every shard's counter items of every sender domain of a project, on every day kept. */
export async function projectDomainDayItems(db: Db, projectId: string): Promise<Record<string, unknown>[]> {
  const shards = await Promise.all(domainStatPartitions(projectId).map((pk) => queryAllByPrefix(db, pk, DOMAIN_STAT_SK_PREFIX)));
  return shards.flat();
}

/** Every shard's hourly counter items of a project in `mode` between two hours (inclusive). */
export async function projectHourItems(db: Db, projectId: string, mode: 'live' | 'test', fromHour: string, toHour: string): Promise<Record<string, unknown>[]> {
  return rangeOnEveryShard(db, projectStatPartitions(projectId), projectStatRange(mode, fromHour, toHour));
}

/** The items of every counter shard whose sort key lies in `range` (inclusive), all shards read at once. */
async function rangeOnEveryShard(db: Db, partitions: readonly string[], range: { from: string; to: string }): Promise<Record<string, unknown>[]> {
  const shards = await Promise.all(
    partitions.map((pk) =>
      queryAll(db, {
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': range.from, ':to': range.to },
      }),
    ),
  );
  return shards.flat();
}
