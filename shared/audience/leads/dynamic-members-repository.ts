import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '../../platform/store/batch-get';
import { batchWriteAll } from '../../platform/store/batch-write';
import type { Db } from '../../platform/store/client';
import { dynamicMemberKey, dynamicMembersPartition, leadKey, leadShards } from '../../platform/store/keys';

/** Writes members a dynamic segment's evaluation found (idempotent puts, 25 per BatchWrite). */
export async function putDynamicMembers(db: Db, projectId: string, segmentId: string, generation: number, emails: readonly string[]): Promise<void> {
  await batchWriteAll(db, emails.map((email) => ({ put: { ...dynamicMemberKey(projectId, segmentId, generation, email) } })));
}

/** One page of one shard of a generation's members (emails in order) and the next start. */
export async function dynamicMembersPage(db: Db, projectId: string, segmentId: string, generation: number, shard: number, start: Record<string, unknown> | undefined, limit: number) {
  const out: QueryCommandOutput = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': dynamicMembersPartition(projectId, segmentId, generation, shard) },
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return { emails: (out.Items ?? []).map((item) => String(item.sk)), next: out.LastEvaluatedKey };
}

/**
 * The members of one shard of a generation whose emails lie between `from` and `to` (inclusive):
 * a page of the shard's leads compared with the previous generation in one range read (keys only).
 */
export async function dynamicMembersBetween(db: Db, projectId: string, segmentId: string, generation: number, shard: number, from: string, to: string): Promise<Set<string>> {
  const emails = new Set<string>();
  let start: Record<string, unknown> | undefined;
  do {
    const out: QueryCommandOutput = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': dynamicMembersPartition(projectId, segmentId, generation, shard), ':from': from, ':to': to },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of out.Items ?? []) emails.add(String(item.sk));
    start = out.LastEvaluatedKey;
  } while (start);
  return emails;
}

/** Table keys of entries `offset` to `offset + limit` of a generation's members in email order (every shard read to that depth, merged). */
export async function dynamicMemberLeadKeys(db: Db, projectId: string, segmentId: string, generation: number, offset: number, limit: number): Promise<{ pk: string; sk: string }[]> {
  const perShard = await Promise.all(
    leadShards().map(async (shard) => {
      const emails: string[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await dynamicMembersPage(db, projectId, segmentId, generation, shard, start, Math.min(1000, offset + limit - emails.length));
        emails.push(...page.emails);
        start = page.next;
      } while (start && emails.length < offset + limit);
      return emails;
    }),
  );
  return perShard.flat().sort().slice(offset, offset + limit).map((email) => leadKey(projectId, email));
}

/** Deletes every member of one generation, shard by shard (the cleanup after a newer run, or of a deleted segment). */
export async function deleteDynamicGeneration(db: Db, projectId: string, segmentId: string, generation: number): Promise<void> {
  for (const shard of leadShards()) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await dynamicMembersPage(db, projectId, segmentId, generation, shard, start, 1000);
      await batchWriteAll(db, page.emails.map((email) => ({ delete: { ...dynamicMemberKey(projectId, segmentId, generation, email) } })));
      start = page.next;
    } while (start);
  }
}

/** Which of the given emails are members of a generation. */
export async function dynamicMembersAmong(db: Db, projectId: string, segmentId: string, generation: number, emails: readonly string[]): Promise<Set<string>> {
  if (generation <= 0 || emails.length === 0) return new Set();
  const items = await batchGetAll(db, emails.map((e) => ({ ...dynamicMemberKey(projectId, segmentId, generation, e) })));
  return new Set(items.map((item) => String(item.sk)));
}
