import { GetCommand, PutCommand, QueryCommand, DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailure } from '../errors';
import { stripKeys, type Db } from '../store/client';
import { CAMPAIGN_HELD_SK_PREFIX, campaignCursorKey, campaignHeldJobKey, campaignKey } from '../store/keys';
import { setFields } from '../store/set-fields';
import type { Campaign, CampaignPause, CampaignStatus } from './campaign';
import type { CursorPosition } from './audience-cursor';

/**
 * The engine's own writes on the campaign and its cursor (docs/campaigns.md): each one conditional,
 * so a redelivered or duplicated engine message changes nothing twice.
 */

const GSI_ATTRIBUTES = ['gsi1pk', 'gsi1sk'];

/** How long a warm send worker trusts a campaign's status it read: a cancel or pause reaches every worker within this. */
export const STATUS_KEEP_MS = 5_000;

/** The engine cursor: where the frozen audience was left, and the fence of the steps. */
export interface EngineCursor {
  /** The next step allowed to save (a step n saves only when this is n). */
  step: number;
  /** The next wave's number (its batch id derives from it). */
  wave: number;
  position: CursorPosition;
  released: number;
  exhausted: boolean;
  /** What the send pipeline had accounted for at the last check after exhaustion, and since when (completion's quiet period). */
  settled?: { count: number; since: string };
}

/** The campaign, read consistently (the engine acts on the latest state), or undefined. */
export async function getCampaign(db: Db, campaignId: string): Promise<Campaign | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: campaignKey(campaignId), ConsistentRead: true }));
  if (!out.Item) return undefined;
  const item = stripKeys<Record<string, unknown>>(out.Item);
  for (const name of GSI_ATTRIBUTES) delete item[name];
  return item as unknown as Campaign;
}

/** Runs a conditional update of the campaign; false when the condition failed. */
async function updateCampaign(db: Db, campaignId: string, input: { set: Record<string, unknown>; remove?: string[]; condition: string; values?: Record<string, unknown>; names?: Record<string, string> }): Promise<boolean> {
  const update = setFields(input.set, input.remove);
  const values = { ...input.values, ...update.ExpressionAttributeValues };
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: campaignKey(campaignId),
        UpdateExpression: update.UpdateExpression,
        ConditionExpression: `attribute_exists(pk) AND (${input.condition})`,
        ExpressionAttributeNames: { '#status': 'status', ...input.names, ...update.ExpressionAttributeNames },
        ExpressionAttributeValues: Object.keys(values).length ? values : undefined,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

const statusIn = (statuses: readonly CampaignStatus[], values: Record<string, unknown>) =>
  `#status IN (${statuses.map((s, i) => {
    values[`:st${i}`] = s;
    return `:st${i}`;
  }).join(', ')})`;

/** Moves the campaign from one of `from` to `to` with the given fields; false when it was elsewhere. */
export async function moveCampaign(db: Db, campaignId: string, from: readonly CampaignStatus[], to: CampaignStatus, fields: Record<string, unknown>, remove?: string[]): Promise<boolean> {
  const values: Record<string, unknown> = {};
  return updateCampaign(db, campaignId, { set: { status: to, ...fields }, remove, condition: statusIn(from, values), values });
}

/** Init's move: `initializing` to `pending` with the frozen audience's counts. */
export function markPending(db: Db, campaignId: string, counts: { total_recipients: number; total_batches?: number; current_batch?: number }, now: string): Promise<boolean> {
  return moveCampaign(db, campaignId, ['initializing'], 'pending', { ...counts, updated_at: now });
}

/**
 * Records step `step` on the campaign (step n to n+1) with what it changed: its status (pending to
 * processing, rate_limited and back), `released`, `exhausted`, the batch fields. Conditional on the
 * step and on a state the engine may act in, so a cancel or pause in between wins.
 */
export function recordStep(db: Db, campaignId: string, step: number, status: CampaignStatus, fields: Record<string, unknown>): Promise<boolean> {
  const values: Record<string, unknown> = { ':step': step };
  return updateCampaign(db, campaignId, {
    set: { status, step: step + 1, ...fields },
    condition: `#step = :step AND ${statusIn(['pending', 'processing', 'rate_limited'], values)}`,
    names: { '#step': 'step' },
    values,
  });
}

/** The send worker saw SES throttle a mail: `processing` becomes `rate_limited`; a campaign already so notes the time again. */
export function markRateLimited(db: Db, campaignId: string, now: string): Promise<boolean> {
  return moveCampaign(db, campaignId, ['processing', 'rate_limited'], 'rate_limited', { throttled_at: now, updated_at: now });
}

/** The reputation guard's pause, from a running state. */
export function pauseByGuard(db: Db, campaignId: string, pause: CampaignPause): Promise<boolean> {
  return moveCampaign(db, campaignId, ['pending', 'processing', 'rate_limited'], 'paused', { pause, updated_at: pause.at });
}

/** The campaign's cursor; a campaign that never stepped starts at its beginning. */
export async function getCursor(db: Db, campaignId: string): Promise<EngineCursor> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: campaignCursorKey(campaignId), ConsistentRead: true }));
  if (!out.Item) return { step: 0, wave: 0, position: {}, released: 0, exhausted: false };
  return stripKeys<EngineCursor>(out.Item);
}

/**
 * Saves the cursor after step `step` (the step's mail is queued already): conditional on the
 * cursor still expecting that step, so of two runs of one step only one saves. False otherwise.
 */
export async function saveCursor(db: Db, campaignId: string, step: number, cursor: Omit<EngineCursor, 'step'>): Promise<boolean> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...campaignCursorKey(campaignId), ...cursor, step: step + 1 },
        ConditionExpression: step === 0 ? 'attribute_not_exists(pk) OR #step = :step' : '#step = :step',
        ExpressionAttributeNames: { '#step': 'step' },
        ExpressionAttributeValues: { ':step': step },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailure(error)) return false;
    throw error;
  }
}

/** A send job held while its campaign is paused; its id names the wave and the job's first recipient, so a redelivery holds it once. */
export async function holdJob(db: Db, campaignId: string, jobId: string, job: unknown, ttl: number): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...campaignHeldJobKey(campaignId, jobId), job, ttl } }));
}

/** Up to `limit` held jobs of a campaign, with their ids. */
export async function heldJobs(db: Db, campaignId: string, limit: number): Promise<{ id: string; job: unknown }[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': campaignKey(campaignId).pk, ':prefix': CAMPAIGN_HELD_SK_PREFIX },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => ({ id: String(item.sk).slice(CAMPAIGN_HELD_SK_PREFIX.length), job: item.job }));
}

/** Deletes a held job once it is queued again. */
export async function releaseHeldJob(db: Db, campaignId: string, jobId: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: campaignHeldJobKey(campaignId, jobId) }));
}
