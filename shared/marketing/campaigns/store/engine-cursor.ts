import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../../../platform/store/client';
import { writtenUnlessConditionFails } from '../../../platform/store/conditional-write';
import { CAMPAIGN_HELD_SK_PREFIX, campaignCursorKey, campaignHeldJobKey, campaignKey } from '../../../platform/store/keys';
import type { CursorPosition } from '../audience-cursor';

/**
 * The engine's items beside the campaign (docs/campaigns.md): its cursor, whose step fence lets
 * one run of a step save, and the send jobs held while the campaign is paused.
 */

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
export function saveCursor(db: Db, campaignId: string, step: number, cursor: Omit<EngineCursor, 'step'>): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...campaignCursorKey(campaignId), ...cursor, step: step + 1 },
        ConditionExpression: step === 0 ? 'attribute_not_exists(pk) OR #step = :step' : '#step = :step',
        ExpressionAttributeNames: { '#step': 'step' },
        ExpressionAttributeValues: { ':step': step },
      }),
    ),
  );
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
