import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { applyTransition } from '../../platform/store/aggregate';
import { activityLifecycle } from '../../platform/store/aggregates/activity';
import { conditionalWrite, writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import { BATCH_GET_LIMIT, batchGetAll } from '../../platform/store/batch-get';
import { batchPutAll } from '../../platform/store/batch-write';
import { stripKeys, type Db } from '../../platform/store/client';
import { ACTIVITY_BODY_SK, ACTIVITY_SK, ENGAGEMENT_SK_PREFIX, RARE_STATUSES, activityBodyKey, activityIndexes, activityKey, activityPartition, activityStatusIndex, type ActivityListPartition } from '../../platform/store/keys';
import type { ListQuery } from '../../platform/store/bounded-list';
import { SENDABLE_STATUSES, type Activity, type ActivityFailure, type ActivityStatus, type TimelineEvent } from './activity';

/** The item a new activity record is stored as: its key, the record, version 1, its index keys and expiry. */
export function newActivityItem(activity: Activity, ttl: number): Record<string, unknown> {
  return { ...activityKey(activity.id), ...activity, version: 1, ...activityIndexes(activity), ttl };
}

/** Writes a new activity record (1 WCU: the record stays under 1 KB because the body lives apart). */
export async function putActivity(db: Db, activity: Activity, ttl: number): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: newActivityItem(activity, ttl),
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/**
 * Writes new activity records 25 to a request (1 WCU each plus their index entries), for a batch's
 * fan-out. Unconditional, unlike putActivity: the fan-out writes only records that do not exist
 * yet (it checks first when its chunk may have been written before).
 */
export async function putActivitiesInBatch(db: Db, activities: readonly Activity[], ttl: number, parallel?: number): Promise<void> {
  await batchPutAll(
    db,
    activities.map((activity) => ({ ...newActivityItem(activity, ttl), ...statusIndexFields(activity, activity.current_status) })),
    parallel,
  );
}

/**
 * The status and creation time (the key of its status index entry) of each activity record among
 * `ids` that exists (a fan-out chunk asks). Strongly consistent: a record missed by a stale read
 * would be written again as `queued` over a sent one, and its job's claim, its lease long run out,
 * would send the mail a second time.
 */
export async function existingActivities(db: Db, ids: readonly string[]): Promise<Map<string, Pick<Activity, 'current_status' | 'created_at'>>> {
  const items = await batchGetAll(db, ids.map((id) => ({ ...activityKey(id) })), undefined, { consistentRead: true });
  return new Map(items.map((item) => [String(item.id), { current_status: item.current_status as ActivityStatus, created_at: String(item.created_at) }]));
}

/** The activity record, or undefined; `consistent` for the worker, which must see its own writes. */
export async function getActivity(db: Db, activityId: string, consistent = false): Promise<Activity | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: activityKey(activityId), ConsistentRead: consistent }));
  return out.Item ? fromItem(out.Item) : undefined;
}

// Index keys and the send worker's claim (claimQueuedSend) live on the item but are not the record's.
const NON_RECORD_ATTRIBUTES = ['gsi3pk', 'gsi3sk', 'gsi5pk', 'gsi5sk', 'gsi6pk', 'gsi6sk', 'attempt', 'lease_until'];

/** A stored activity item without its key, index and claim attributes. */
export function fromItem(item: Record<string, unknown>): Activity {
  const record = stripKeys<Record<string, unknown>>(item);
  for (const name of NON_RECORD_ATTRIBUTES) delete record[name];
  return record as unknown as Activity;
}

/** The index attributes an activity needs when it enters `status` (only rare statuses have any). */
export function statusIndexFields(activity: Pick<Activity, 'project_id' | 'created_at' | 'id'>, status: ActivityStatus): Record<string, unknown> {
  return (RARE_STATUSES as readonly string[]).includes(status) ? activityStatusIndex(activity.project_id, status, activity.created_at, activity.id) : {};
}

/** The activity record and its stored body (written at accept, or by a batch mail's claim), in one Query. */
export async function getActivityWithBody(db: Db, activityId: string, consistent = false): Promise<{ activity?: Activity; body?: Uint8Array; engagement: TimelineEvent[] }> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      ConsistentRead: consistent,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': activityPartition(activityId) },
    }),
  );
  const items = out.Items ?? [];
  const record = items.find((i) => i.sk === ACTIVITY_SK);
  const body = items.find((i) => i.sk === ACTIVITY_BODY_SK);
  const engagement = items.filter((i) => String(i.sk).startsWith(ENGAGEMENT_SK_PREFIX)).map((i) => stripKeys<TimelineEvent>(i));
  return { activity: record ? fromItem(record) : undefined, body: body?.content as Uint8Array | undefined, engagement };
}

/** Outcome of trying to claim an activity for one send attempt. */
export type ClaimResult = 'claimed' | 'busy' | 'superseded';

/**
 * Writes an activity's body when the API accepts the mail (ceil(gzipped KB) WCU), so that
 * `include=html` shows a queued mail. Conditional: an existing body (the same mail accepted twice
 * under one pre-chosen id, or a batch mail's claim) is left as it is, never overwritten.
 */
export async function putActivityBody(db: Db, activityId: string, content: Uint8Array, ttl: number): Promise<void> {
  await writtenUnlessConditionFails(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...activityBodyKey(activityId), content, ttl },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/**
 * Claims send attempt `attempt` of a mail whose body the API stored, by a conditional update of
 * the record itself (1 WCU: it stays under 1 KB). It succeeds for the first delivery of an attempt,
 * for a later attempt, or when the previous holder's lease ran out (it crashed); the record comes
 * back with it, so the worker needs no read of its own. A record no longer sendable is `skipped`.
 */
export async function claimQueuedSend(
  db: Db,
  input: { activityId: string; attempt: number; leaseUntil: number; now: number },
): Promise<{ claim: ClaimResult | 'skipped'; activity?: Activity }> {
  const claim = db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: activityKey(input.activityId),
      UpdateExpression: 'SET attempt = :a, lease_until = :lease',
      ConditionExpression:
        'attribute_exists(pk) AND current_status IN (:q, :r) AND (attribute_not_exists(attempt) OR attempt < :a OR (attempt = :a AND lease_until < :now))',
      ExpressionAttributeValues: { ':a': input.attempt, ':lease': input.leaseUntil, ':now': input.now, ':q': SENDABLE_STATUSES[0], ':r': SENDABLE_STATUSES[1] },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
  const outcome = await conditionalWrite(claim);
  if (outcome.written) return { claim: 'claimed', activity: fromItem(outcome.output.Attributes ?? {}) };
  const old = outcome.standing as { current_status?: { S?: string }; attempt?: { N?: string } } | undefined;
  if (!old) throw new Error(`Activity ${input.activityId} not found`);
  if (!SENDABLE_STATUSES.includes(old.current_status?.S as ActivityStatus)) return { claim: 'skipped' };
  return { claim: Number(old.attempt?.N ?? 0) > input.attempt ? 'superseded' : 'busy' };
}

/**
 * Claims send attempt `attempt` by writing the activity's body item: the claim of a mail whose body
 * the API did not store (a batch's mail, rendered by its worker). The write is conditional: it
 * succeeds for the first delivery of an attempt, for a later attempt, or when the previous holder's
 * lease ran out (it crashed). Claim and body are one write instead of two.
 */
export async function claimSendAttempt(
  db: Db,
  input: { activityId: string; attempt: number; content: Uint8Array; leaseUntil: number; now: number; ttl: number },
): Promise<ClaimResult> {
  const claim = db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: { ...activityBodyKey(input.activityId), content: input.content, attempt: input.attempt, lease_until: input.leaseUntil, ttl: input.ttl },
      // A body stored at accept carries no attempt yet: it is not a claim.
      ConditionExpression: 'attribute_not_exists(pk) OR attribute_not_exists(attempt) OR attempt < :a OR (attempt = :a AND lease_until < :now)',
      ExpressionAttributeValues: { ':a': input.attempt, ':now': input.now },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
  const outcome = await conditionalWrite(claim);
  if (outcome.written) return 'claimed';
  const old = outcome.standing as { attempt?: { N?: string } | number } | undefined;
  const held = typeof old?.attempt === 'number' ? old.attempt : Number(old?.attempt?.N ?? 0);
  return held > input.attempt ? 'superseded' : 'busy';
}

/** A declared move of an activity out of the sendable states. */
type SendableExit = keyof typeof activityLifecycle.transitions;

/**
 * Moves a sendable activity (queued or retrying) to `status` by its declared transition
 * (activityLifecycle), setting `fields` (those the transition declares). Returns false when
 * the activity had already left the sendable states, which is how a transition (and anything
 * emitted with it) happens exactly once.
 */
export function transitionFromSendable(
  db: Db,
  activity: Pick<Activity, 'id' | 'project_id' | 'created_at'>,
  status: ActivityStatus,
  fields: Record<string, unknown>,
): Promise<boolean> {
  const name = (Object.keys(activityLifecycle.transitions) as SendableExit[]).find((n) => activityLifecycle.transitions[n].to === status);
  if (!name) throw new Error(`No activity transition is declared to ${status}`);
  return applyTransition(db, activityLifecycle, name, activityKey(activity.id), { ...fields, ...statusIndexFields(activity, status) });
}

/**
 * Records the send when a delivery event got to the record first (it moved the status on before
 * the worker's own `sent` write): sets `sent_at` (which is the `sent` timeline entry) and the
 * message id if missing. Whoever sets `sent_at` first counts the send, so this is conditional on its absence.
 */
export async function recordSentAfterEvent(db: Db, activityId: string, messageId: string, sentAt: string): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: activityKey(activityId),
        UpdateExpression:
          'SET sent_at = :at, message_id = if_not_exists(message_id, :m), updated_at = :at, #v = #v + :one',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(sent_at)',
        ExpressionAttributeNames: { '#v': 'version' },
        ExpressionAttributeValues: { ':at': sentAt, ':m': messageId, ':one': 1 },
      }),
    ),
  );
}

/** Records a final failure; true only for the call that made the transition. */
export function markFailed(db: Db, activity: Pick<Activity, 'id' | 'project_id' | 'created_at'>, failure: ActivityFailure, at: string): Promise<boolean> {
  return transitionFromSendable(db, activity, 'failed', { failure, updated_at: at });
}

/**
 * Sets the given fields (and removes `remove`) only if the record is still at `expectedVersion`,
 * bumping it: the read-modify-write of delivery events. False when someone else wrote first.
 */
export async function updateActivityIfVersion(
  db: Db,
  activityId: string,
  expectedVersion: number,
  fields: Record<string, unknown>,
  remove: string[] = [],
): Promise<boolean> {
  const entries = Object.entries(fields);
  const names: Record<string, string> = { '#v': 'version' };
  const values: Record<string, unknown> = { ':expected': expectedVersion, ':next': expectedVersion + 1 };
  const sets = ['#v = :next'];
  entries.forEach(([name, value], i) => {
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  remove.forEach((name, i) => (names[`#r${i}`] = name));
  const removal = remove.length > 0 ? ` REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : '';
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: activityKey(activityId),
        UpdateExpression: `SET ${sets.join(', ')}${removal}`,
        ConditionExpression: '#v = :expected',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** The activity records of the given partitions (`ACT#<id>`), in that order (BatchGet answers unordered), 100 keys a call, the calls in parallel. */
export async function activitiesInOrder(db: Db, partitions: readonly string[]): Promise<Activity[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < partitions.length; i += BATCH_GET_LIMIT) chunks.push(partitions.slice(i, i + BATCH_GET_LIMIT));
  const items = (await Promise.all(chunks.map((chunk) => batchGetAll(db, chunk.map((pk) => ({ pk, sk: ACTIVITY_SK })))))).flat();
  const byPk = new Map(items.map((item) => [item.pk as string, fromItem(item)]));
  return partitions.map((pk) => byPk.get(pk)).filter((a): a is Activity => a !== undefined);
}

/**
 * The Query of one shard partition of an activity list index, newest first, bounded by the
 * creation times `since`/`until` and at most `after` (inclusive), with the partition's own filter.
 */
export function activityListQuery(db: Db, partition: ActivityListPartition, pk: string, range: { since?: string; until?: string }, after?: string): ListQuery {
  const until = range.until ? `${range.until}#~` : undefined;
  const upper = after !== undefined && (until === undefined || after < until) ? after : until;
  return {
    TableName: db.tableName,
    IndexName: partition.index,
    KeyConditionExpression: `#pk = :pk${rangeCondition(range.since, upper)}`,
    ...(partition.filter ? { FilterExpression: partition.filter.expression } : {}),
    ExpressionAttributeNames: { '#pk': partition.pkName, ...(range.since || upper ? { '#sk': partition.skName } : {}), ...partition.filter?.names },
    ExpressionAttributeValues: {
      ':pk': pk,
      ...(range.since ? { ':since': range.since } : {}),
      ...(upper ? { ':until': upper } : {}),
      ...partition.filter?.values,
    },
    ScanIndexForward: false,
  };
}

function rangeCondition(since: string | undefined, upper: string | undefined): string {
  if (since && upper) return ' AND #sk BETWEEN :since AND :until';
  if (since) return ' AND #sk >= :since';
  if (upper) return ' AND #sk <= :until';
  return '';
}
