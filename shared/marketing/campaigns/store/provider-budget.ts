import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '../../../platform/store/batch-get';
import type { Db } from '../../../platform/store/client';
import { writtenUnlessConditionFails } from '../../../platform/store/conditional-write';
import { providerPaceKey, providerRateKey } from '../../../platform/store/keys';

/**
 * The mailbox providers' campaign budgets (provider-pacing.ts), deployment-wide: one `PRATE` /
 * `MIN#<minute>` item per minute holding, per provider, the mails taken from its budget (kept an
 * hour past the minute), and each provider's backoff state `PRATE` / `PACE#<provider>`.
 */

/** How long a minute's item outlives the minute, in seconds. */
const MINUTE_ITEM_SECONDS = 3600;

/**
 * Adds each provider's `asks[p]` to its mails taken in the minute if every one still fits its
 * `capacity[p]` (one conditional ADD for all of them); false when one would not fit.
 */
export function takeFromProviderMinute(db: Db, minute: number, asks: Readonly<Record<string, number>>, capacity: Readonly<Record<string, number>>): Promise<boolean> {
  const providers = Object.keys(asks).filter((p) => asks[p] > 0);
  if (providers.length === 0) return Promise.resolve(true);
  const names: Record<string, string> = { '#ttl': 'ttl' };
  const values: Record<string, unknown> = { ':ttl': minute + 60 + MINUTE_ITEM_SECONDS };
  providers.forEach((p, i) => {
    names[`#p${i}`] = p;
    values[`:n${i}`] = asks[p];
    values[`:r${i}`] = capacity[p] - asks[p];
  });
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: providerRateKey(minute),
        UpdateExpression: `ADD ${providers.map((_, i) => `#p${i} :n${i}`).join(', ')} SET #ttl = :ttl`,
        ConditionExpression: providers.map((_, i) => `(attribute_not_exists(#p${i}) OR #p${i} <= :r${i})`).join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/** The mails taken from each provider's budget of the minute so far (read strongly consistent). */
export async function takenInProviderMinute(db: Db, minute: number): Promise<Record<string, number>> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: providerRateKey(minute), ConsistentRead: true }));
  const item = out.Item ?? {};
  return Object.fromEntries(Object.entries(item).filter(([k, v]) => typeof v === 'number' && k !== 'ttl').map(([k, v]) => [k, v as number]));
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
    out.set(String(item.sk).slice('PACE#'.length), { level: Number(item.level ?? 0), bad_minute: Number(item.bad_minute ?? 0) });
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
