import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '../../../platform/store/batch-get';
import type { Db } from '../../../platform/store/client';
import { writtenUnlessConditionFails } from '../../../platform/store/conditional-write';
import { providerPaceKey, providerRateKey } from '../../../platform/store/keys';

/**
 * Each mailbox provider's campaign budget (provider-pacing.ts), deployment-wide: one
 * `PRATE#<provider>` / `MIN#<minute>` item per minute holding the mails `taken` from it (kept an
 * hour past the minute), and the provider's backoff state `PRATE#<provider>` / `PACE`.
 */

/** How long a minute's item outlives the minute, in seconds. */
const MINUTE_ITEM_SECONDS = 3600;

/** Adds `n` to the provider's minute if at most `capacity - n` were taken before (one conditional ADD); false when they would not fit. */
export function takeFromProviderMinute(db: Db, provider: string, minute: number, n: number, capacity: number): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: providerRateKey(provider, minute),
        UpdateExpression: 'ADD taken :n SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(taken) OR taken <= :room',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':n': n, ':room': capacity - n, ':ttl': minute + 60 + MINUTE_ITEM_SECONDS },
      }),
    ),
  );
}

/** The mails taken from the provider's minute so far (read strongly consistent). */
export async function takenInProviderMinute(db: Db, provider: string, minute: number): Promise<number> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: providerRateKey(provider, minute), ConsistentRead: true }));
  return Number(out.Item?.taken ?? 0);
}

/** A provider's backoff: its pace is halved `level` times, as of the deferral burst counted in minute `bad_minute`. */
export interface ProviderPace {
  level: number;
  bad_minute: number;
}

/** The backoff states of `providers` (one BatchGet); a provider never slowed has none. */
export async function providerPaces(db: Db, providers: readonly string[]): Promise<Map<string, ProviderPace>> {
  const out = new Map<string, ProviderPace>();
  if (providers.length === 0) return out;
  for (const item of await batchGetAll(db, providers.map((p) => ({ ...providerPaceKey(p) })))) {
    out.set(String(item.pk).slice('PRATE#'.length), { level: Number(item.level ?? 0), bad_minute: Number(item.bad_minute ?? 0) });
  }
  return out;
}

/** Records a deferral burst in minute `pace.bad_minute` once (conditional on no later or equal one recorded); false when one was. */
export function recordProviderBurst(db: Db, provider: string, pace: ProviderPace): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...providerPaceKey(provider), ...pace },
        ConditionExpression: 'attribute_not_exists(bad_minute) OR bad_minute < :b',
        ExpressionAttributeValues: { ':b': pace.bad_minute },
      }),
    ),
  );
}
