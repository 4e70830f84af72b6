import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { applyTransition } from '../../platform/store/aggregate';
import { scheduledSendLifecycle } from '../../platform/store/aggregates/scheduling';
import { conditionalWrite } from '../../platform/store/conditional-write';
import { stripKeys, type Db } from '../../platform/store/client';
import { batchGetAll } from '../../platform/store/batch-get';
import { queryAll } from '../../platform/store/query';
import { parseScheduledDueSortKey, scheduledDuePartitions, scheduledDueIndex, scheduledListIndex, scheduledListSortKey, scheduledPendingIndex, scheduledSendKey } from '../../platform/store/keys';
import type { ScheduledSendContent } from '../mail/advanced-send-types';
import type { ScheduledSend } from './scheduled-send';

const DUE_INDEX = 'gsi5';
const INDEX_ATTRIBUTES = ['gsi5pk', 'gsi5sk', 'gsi4pk', 'gsi4sk', 'gsi6pk', 'gsi6sk'];

/** A send in the due index: its id and its `scheduled_for` (read from the keys-only entry). */
export interface DueEntry {
  id: string;
  scheduledFor: string;
}

/** The outcome of a move: the new item, or nothing when the send was not (or no longer) pending. */
export type MoveResult = { changed: true; send: ScheduledSend } | { changed: false };

/**
 * Writes a new pending send with its entries in the due index, its project's list and its project's
 * pending list: 1 WCU per KB of the item (its content is gzipped) plus 1 for each index entry.
 */
export async function putScheduledSend(db: Db, send: ScheduledSend, ttl: number): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: {
        ...scheduledSendKey(send.id),
        ...send,
        content: encodeContent(send.content),
        ...scheduledDueIndex(send.scheduled_for, send.id),
        ...scheduledListIndex(send),
        ...scheduledPendingIndex(send),
        ttl,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** The send, or undefined; `consistent` for the worker, which must see the latest PATCH or DELETE. */
export async function getScheduledSend(db: Db, id: string, consistent = false): Promise<ScheduledSend | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: scheduledSendKey(id), ConsistentRead: consistent }));
  return out.Item ? fromItem(out.Item) : undefined;
}

/**
 * The sends of the given ids, in their order (one gone meanwhile is undefined): one BatchGet per
 * hundred, each item its size in read units (its content is gzipped).
 */
export async function getScheduledSends(db: Db, ids: readonly string[]): Promise<(ScheduledSend | undefined)[]> {
  const items = await batchGetAll(db, ids.map((id) => ({ ...scheduledSendKey(id) })));
  const byId = new Map(items.map((item) => [String(item.id), fromItem(item)]));
  return ids.map((id) => byId.get(id));
}

/**
 * Claims a pending send for firing (its declared `claim`): `processing`, out of the due index, with the claiming queue
 * message's id (its redeliveries may finish the send; other messages may not). Conditional on the
 * time the fire message names, so a message of a rescheduled send never claims. False when another
 * message claimed first or the send was moved or cancelled meanwhile.
 */
export function claimScheduledSend(db: Db, input: { id: string; scheduledFor: string; claimedBy: string; now: string }): Promise<boolean> {
  return applyTransition(db, scheduledSendLifecycle, 'claim', scheduledSendKey(input.id), { claimed_by: input.claimedBy, updated_at: input.now }, {
    expression: 'scheduled_for = :for',
    values: { ':for': input.scheduledFor },
  });
}

/**
 * Moves a pending send of `projectId` to a new time: new due-index entry, new sort keys in its
 * project's lists (their partitions hang on the id, project and mode, which never change), new expiry.
 */
export async function moveScheduledSend(
  db: Db,
  input: { id: string; projectId: string; scheduledFor: string; timezone: string; now: string; ttl: number },
): Promise<MoveResult> {
  const due = scheduledDueIndex(input.scheduledFor, input.id);
  const item = await conditionalUpdate(
    db,
    input.id,
    {
      UpdateExpression: 'SET scheduled_for = :for, #tz = :tz, gsi5pk = :dpk, gsi5sk = :dsk, gsi4sk = :lsk, gsi6sk = :lsk, #ttl = :ttl, updated_at = :now, #v = #v + :one',
      ConditionExpression: '#s = :pending AND project_id = :p',
      // TIMEZONE, STATUS and TTL are DynamoDB reserved words.
      ExpressionAttributeNames: { '#s': 'status', '#v': 'version', '#ttl': 'ttl', '#tz': 'timezone' },
      ExpressionAttributeValues: {
        ':for': input.scheduledFor,
        ':tz': input.timezone,
        ':dpk': due.gsi5pk,
        ':dsk': due.gsi5sk,
        ':lsk': scheduledListSortKey(input.scheduledFor, input.id),
        ':ttl': input.ttl,
        ':now': input.now,
        ':pending': 'pending',
        ':p': input.projectId,
        ':one': 1,
      },
    },
    { returnNew: true },
  );
  return item ? { changed: true, send: fromItem(item) } : { changed: false };
}

/** Cancels a pending send of `projectId` (its declared `cancel`) and takes it out of the due index. */
export function cancelPendingScheduledSend(db: Db, id: string, projectId: string, now: string): Promise<boolean> {
  return applyTransition(db, scheduledSendLifecycle, 'cancel', scheduledSendKey(id), { updated_at: now }, { expression: 'project_id = :p', values: { ':p': projectId } });
}

/** Records why a claimed send could not go out; only a `processing` send can fail. */
export function markScheduledSendFailed(db: Db, id: string, error: string, now: string): Promise<boolean> {
  return applyTransition(db, scheduledSendLifecycle, 'fail', scheduledSendKey(id), { error, updated_at: now });
}

/**
 * Every send in the due index due at or before `until`, oldest first, all pages of every shard. The
 * index is keys-only: the sort key alone gives the due time and the id, so no item is read.
 */
export async function queryDueScheduledSends(db: Db, until: Date): Promise<DueEntry[]> {
  // Sort keys start with the ISO time, so everything due up to `until` sorts before `until` + 1 ms.
  const bound = new Date(until.getTime() + 1).toISOString();
  const shards = await Promise.all(
    scheduledDuePartitions().map((pk) =>
      queryAll(db, {
        TableName: db.tableName,
        IndexName: DUE_INDEX,
        KeyConditionExpression: 'gsi5pk = :pk AND gsi5sk < :bound',
        ExpressionAttributeValues: { ':pk': pk, ':bound': bound },
      }),
    ),
  );
  return shards
    .flat()
    .map((item) => String(item.gsi5sk))
    .sort()
    .map(parseScheduledDueSortKey)
    .filter((entry): entry is DueEntry => entry !== undefined);
}

/**
 * The content as stored: gzipped JSON. HTML shrinks 4 to 10 times, and every later update of the
 * item (claim, move, cancel) costs a write unit per KB of the whole item.
 */
export function encodeContent(content: ScheduledSendContent): Uint8Array {
  return gzipSync(Buffer.from(JSON.stringify(content)), { level: 6 });
}

/** Reverses encodeContent. */
export function decodeContent(stored: Uint8Array): ScheduledSendContent {
  return JSON.parse(gunzipSync(Buffer.from(stored)).toString('utf8')) as ScheduledSendContent;
}

/** A stored item without its key, index and expiry attributes, its content decoded. */
function fromItem(item: Record<string, unknown>): ScheduledSend {
  const record = stripKeys<Record<string, unknown>>(item);
  for (const name of INDEX_ATTRIBUTES) delete record[name];
  return { ...(record as unknown as ScheduledSend), content: decodeContent(record.content as Uint8Array) };
}

/**
 * An UpdateItem on a send whose condition failing is an answer, not an error: undefined then.
 * Otherwise the new item with `returnNew`, else an empty record (nothing read back).
 */
async function conditionalUpdate(
  db: Db,
  id: string,
  update: {
    UpdateExpression: string;
    ConditionExpression: string;
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues: Record<string, unknown>;
  },
  options: { returnNew?: boolean } = {},
): Promise<Record<string, unknown> | undefined> {
  const outcome = await conditionalWrite(
    db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: scheduledSendKey(id), ...update, ReturnValues: options.returnNew ? 'ALL_NEW' : 'NONE' })),
  );
  return outcome.written ? (outcome.output.Attributes ?? {}) : undefined;
}
