import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '../../platform/store/batch-get';
import { stripKeys, type Db } from '../../platform/store/client';
import { conditionalWrite, writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import { countAll, queryAll, queryAllByPrefix } from '../../platform/store/query';
import { transactWrite, type TransactItem } from '../../platform/store/transact';
import {
  COUNTER_SHARDS,
  SEGMENT_COUNT_SK_PREFIX,
  SEGMENT_SK_PREFIX,
  leadOfMembershipPartition,
  membershipIndex,
  membershipKey,
  membershipPartition,
  projectKey,
  segmentCounterKey,
  segmentKey,
  segmentOfCounterSortKey,
  segmentOfMembershipSortKey,
  segmentTotalKey,
} from '../../platform/store/keys';
import type { Segment, SegmentEvaluation } from './segment';

/**
 * How a write that moves a project's segment count ended: done; refused by the cap (`full`) or
 * because the segment is gone (`gone`); `uncounted`: the project has no count yet (its segments
 * predate it) and countSegments must set it first; `contended`: another transaction held an item.
 */
export type SegmentCountOutcome = 'done' | 'full' | 'gone' | 'uncounted' | 'contended';

/** Reads which of the count's two conditions failed (exists, below the cap); a count set or lowered since by another call is `contended` (try again). */
async function countRefusal(db: Db, projectId: string, max: number): Promise<'full' | 'uncounted' | 'contended'> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: segmentTotalKey(projectId), ConsistentRead: true }));
  if (!out.Item) return 'uncounted';
  return Number(out.Item.count) >= max ? 'full' : 'contended';
}

/**
 * Stores a new segment and counts it in one transaction, the count moved only while below `max`:
 * parallel calls can never together pass the cap.
 */
export async function putNewSegment(db: Db, segment: Segment, max: number): Promise<SegmentCountOutcome> {
  const outcome = await transactWrite(db, [
    {
      Update: {
        TableName: db.tableName,
        Key: segmentTotalKey(segment.project_id),
        UpdateExpression: 'ADD #n :one',
        ConditionExpression: 'attribute_exists(#n) AND #n < :max',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':max': max },
      },
    },
    { Put: { TableName: db.tableName, Item: { ...segmentKey(segment.project_id, segment.id), ...segment }, ConditionExpression: 'attribute_not_exists(pk)' } },
  ]);
  if (outcome.written) return 'done';
  if (outcome.failedConditions.includes(0)) return countRefusal(db, segment.project_id, max);
  if (outcome.failedConditions.length > 0) throw new Error(`Segment ${segment.id} exists already`);
  return 'contended';
}

/**
 * Sets a project's segment count from its segments, where it is absent (a project whose segments
 * predate the count). No segment is created or deleted meanwhile: both are conditional on the count
 * existing. One consistent count Query, once per project.
 */
export async function countSegments(db: Db, projectId: string): Promise<void> {
  const count = await countAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': projectKey(projectId).pk, ':prefix': SEGMENT_SK_PREFIX },
    ConsistentRead: true,
  });
  await writtenUnlessConditionFails(
    db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...segmentTotalKey(projectId), count }, ConditionExpression: 'attribute_not_exists(pk)' })),
  );
}

/** Replaces a segment's name and description (not its type or filter); false when it is gone. */
export async function renameSegment(db: Db, projectId: string, segmentId: string, fields: { name?: string; description?: string | null }, now: string): Promise<boolean> {
  const sets = ['updated_at = :now', ...(fields.name !== undefined ? ['#name = :name'] : []), ...(fields.description !== undefined ? ['description = :d'] : [])];
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: segmentKey(projectId, segmentId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: fields.name !== undefined ? { '#name': 'name' } : undefined,
        ExpressionAttributeValues: { ':now': now, ...(fields.name !== undefined ? { ':name': fields.name } : {}), ...(fields.description !== undefined ? { ':d': fields.description } : {}) },
      }),
    ),
  );
}

/** One segment, or undefined. */
export async function getSegment(db: Db, projectId: string, segmentId: string): Promise<Segment | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: segmentKey(projectId, segmentId), ConsistentRead: true }));
  return out.Item ? stripKeys<Segment>(out.Item) : undefined;
}

/** The segments of the given ids that exist, keyed by id. */
export async function getSegments(db: Db, projectId: string, ids: readonly string[]): Promise<Map<string, Segment>> {
  const items = await batchGetAll(db, ids.map((id) => ({ ...segmentKey(projectId, id) })));
  return new Map(items.map((item) => [String(item.id), stripKeys<Segment>(item)]));
}

/** Every segment of a project (a project has few: tens to hundreds). */
export async function listSegments(db: Db, projectId: string): Promise<Segment[]> {
  return (await queryAllByPrefix(db, projectKey(projectId).pk, SEGMENT_SK_PREFIX)).map((item) => stripKeys<Segment>(item));
}

/** Deletes a segment item and uncounts it in one transaction (its memberships and counters are removed by the background cleanup). */
export async function deleteSegmentItem(db: Db, projectId: string, segmentId: string): Promise<SegmentCountOutcome> {
  const outcome = await transactWrite(db, [
    { Delete: { TableName: db.tableName, Key: segmentKey(projectId, segmentId), ConditionExpression: 'attribute_exists(pk)' } },
    {
      Update: {
        TableName: db.tableName,
        Key: segmentTotalKey(projectId),
        UpdateExpression: 'ADD #n :minus',
        ConditionExpression: 'attribute_exists(#n)',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  ]);
  if (outcome.written) return 'done';
  if (outcome.failedConditions.includes(0)) return 'gone';
  return outcome.failedConditions.includes(1) ? 'uncounted' : 'contended';
}

/** Records a dynamic segment's evaluation state; `ifGeneration` makes it conditional on the run still being current. */
export async function setEvaluation(db: Db, projectId: string, segmentId: string, evaluation: SegmentEvaluation, options: { currentGeneration?: number; ifGeneration?: number } = {}): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: segmentKey(projectId, segmentId),
        UpdateExpression: options.currentGeneration !== undefined ? 'SET evaluation = :e, current_generation = :g' : 'SET evaluation = :e',
        ConditionExpression: options.ifGeneration !== undefined ? 'attribute_exists(pk) AND evaluation.generation = :if' : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':e': evaluation,
          ...(options.currentGeneration !== undefined ? { ':g': options.currentGeneration } : {}),
          ...(options.ifGeneration !== undefined ? { ':if': options.ifGeneration } : {}),
        },
      }),
    ),
  );
}

/** Transaction action that adds a lead to a segment unless it is a member already. */
export function addMembershipAction(db: Db, projectId: string, segmentId: string, lead: { id: string; created_at: string }): TransactItem {
  return {
    Put: {
      TableName: db.tableName,
      Item: { ...membershipKey(projectId, lead.id, segmentId), ...membershipIndex(projectId, segmentId, lead), segment_id: segmentId, lead_id: lead.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Transaction action that removes a lead from a segment, only if it is a member. */
export function removeMembershipAction(db: Db, projectId: string, segmentId: string, leadId: string): TransactItem {
  return { Delete: { TableName: db.tableName, Key: membershipKey(projectId, leadId, segmentId), ConditionExpression: 'attribute_exists(pk)' } };
}

/** Transaction action that adds `delta` to one shard of a segment's member counter. */
export function segmentCounterAction(db: Db, projectId: string, segmentId: string, delta: number, shard = Math.floor(Math.random() * COUNTER_SHARDS)): TransactItem {
  return {
    Update: {
      TableName: db.tableName,
      Key: segmentCounterKey(projectId, segmentId, shard),
      UpdateExpression: 'ADD #n :d',
      ExpressionAttributeNames: { '#n': 'count' },
      ExpressionAttributeValues: { ':d': delta },
    },
  };
}

/** The static segments a lead belongs to (one Query of its membership partition). */
export async function leadSegmentIds(db: Db, projectId: string, leadId: string): Promise<string[]> {
  const items = await queryAll(db, {
    TableName: db.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': membershipPartition(projectId, leadId) },
    ConsistentRead: true,
  });
  return items.map((item) => segmentOfMembershipSortKey(String(item.sk)));
}

/** Which of the (lead, segment) pairs are memberships already, as `leadId#segmentId` strings. */
export async function existingMemberships(db: Db, projectId: string, pairs: readonly { leadId: string; segmentId: string }[]): Promise<Set<string>> {
  const items = await batchGetAll(db, pairs.map((p) => ({ ...membershipKey(projectId, p.leadId, p.segmentId) })), undefined, { consistentRead: true });
  return new Set(items.map((item) => `${leadOfMembershipPartition(String(item.pk))}#${segmentOfMembershipSortKey(String(item.sk))}`));
}

/** Member counts of every static segment of a project, summed over counter shards (one Query). */
export async function segmentMemberCounts(db: Db, projectId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const item of await queryAllByPrefix(db, projectKey(projectId).pk, SEGMENT_COUNT_SK_PREFIX)) {
    const id = segmentOfCounterSortKey(String(item.sk));
    counts.set(id, (counts.get(id) ?? 0) + Number(item.count ?? 0));
  }
  return counts;
}

/** Deletes a segment's counter shards. */
export async function deleteSegmentCounters(db: Db, projectId: string, segmentId: string): Promise<void> {
  await Promise.all(Array.from({ length: COUNTER_SHARDS }, (_, s) => db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: segmentCounterKey(projectId, segmentId, s) }))));
}

/** One page of one shard of a segment's members (gsi2), newest first: the membership keys and the next start. */
export async function membersPage(db: Db, part: { index: string; pkName: string; pk: string }, start: Record<string, unknown> | undefined, limit: number) {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      IndexName: part.index,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': part.pkName },
      ExpressionAttributeValues: { ':pk': part.pk },
      ScanIndexForward: false,
      Limit: limit,
      ExclusiveStartKey: start,
    }),
  );
  return { items: out.Items ?? [], next: out.LastEvaluatedKey };
}

/** Starts run `generation` of a dynamic segment: its evaluation state and an empty per-shard progress. */
export async function startRun(db: Db, projectId: string, segmentId: string, evaluation: SegmentEvaluation): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: segmentKey(projectId, segmentId),
        UpdateExpression: 'SET evaluation = :e, run_shards = :empty, run_done = :zero',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':e': evaluation, ':empty': {}, ':zero': 0 },
      }),
    ),
  );
}

/** Progress of one shard of a run. */
export interface ShardProgress {
  step: number;
  count: number;
  done: boolean;
}

/** The run state of a segment: its per-shard progress. */
export async function runProgress(db: Db, projectId: string, segmentId: string): Promise<Record<string, ShardProgress>> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: segmentKey(projectId, segmentId), ConsistentRead: true, ProjectionExpression: 'run_shards' }));
  return (out.Item?.run_shards as Record<string, ShardProgress> | undefined) ?? {};
}

/**
 * Records one step of a shard, only if the run is still `generation` and the shard is at `step`
 * (a redelivered step finds it moved on and records nothing). Answers whether it was recorded and,
 * when the shard finished, how many shards are done.
 */
export async function recordStep(db: Db, projectId: string, segmentId: string, generation: number, shard: number, step: number, progress: ShardProgress): Promise<{ recorded: boolean; shardsDone?: number }> {
  const outcome = await conditionalWrite(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: segmentKey(projectId, segmentId),
        UpdateExpression: progress.done ? 'SET run_shards.#s = :p ADD run_done :one' : 'SET run_shards.#s = :p',
        ConditionExpression: `evaluation.generation = :g AND ${step === 0 ? 'attribute_not_exists(run_shards.#s)' : 'run_shards.#s.step = :step'}`,
        ExpressionAttributeNames: { '#s': String(shard) },
        ExpressionAttributeValues: { ':p': progress, ':g': generation, ...(step === 0 ? {} : { ':step': step }), ...(progress.done ? { ':one': 1 } : {}) },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  if (!outcome.written) return { recorded: false };
  return { recorded: true, shardsDone: progress.done ? Number(outcome.output.Attributes?.run_done ?? 0) : undefined };
}
