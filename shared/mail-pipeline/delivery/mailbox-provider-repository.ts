import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll } from '../../platform/store/batch-get';
import { batchPutAll } from '../../platform/store/batch-write';
import type { Db } from '../../platform/store/client';
import { mxCacheKey, PROVIDER_DEFERRAL_SHARDS, providerDeferralKey, providerDeferralKeys } from '../../platform/store/keys';
import { MAILBOX_PROVIDERS, type MailboxProvider } from './mailbox-provider';

/**
 * The stored side of mailbox providers that the send pipeline shares with the campaign engine: the
 * MX cache of recipient domains (`MX#<domain>`, kept a day) and the providers' deferral counters
 * (`PDEFER#<provider>#<shard>` / `MIN#<minute>`, kept an hour).
 */

/** How long a domain's cached provider is trusted, in seconds (MX records rarely move; a day bounds a stale answer). */
export const MX_CACHE_SECONDS = 86_400;

/** How long a minute's deferral counter is kept past its minute, in seconds. */
const DEFERRAL_ITEM_SECONDS = 3600;

const isProvider = (value: unknown): value is MailboxProvider => typeof value === 'string' && (MAILBOX_PROVIDERS as readonly string[]).includes(value);

/** The cached providers of `domains` still within their day (one BatchGet per 100 domains); absent ones are not in the map. */
export async function cachedProviders(db: Db, domains: readonly string[], nowSeconds: number): Promise<Map<string, MailboxProvider>> {
  const found = new Map<string, MailboxProvider>();
  if (domains.length === 0) return found;
  const items = await batchGetAll(db, domains.map((d) => ({ ...mxCacheKey(d) })));
  for (const item of items) {
    // DynamoDB deletes expired items lazily: an item past its TTL is a miss.
    if (Number(item.ttl ?? 0) <= nowSeconds || !isProvider(item.provider)) continue;
    found.set(String(item.pk).slice('MX#'.length), item.provider);
  }
  return found;
}

/** Caches the providers of looked-up domains for a day (BatchWrite: 1 write unit per domain). */
export async function cacheProviders(db: Db, providers: ReadonlyMap<string, MailboxProvider>, nowSeconds: number): Promise<void> {
  await batchPutAll(db, [...providers].map(([domain, provider]) => ({ ...mxCacheKey(domain), provider, ttl: nowSeconds + MX_CACHE_SECONDS })));
}

/** Adds `n` deferrals to a random shard of the provider's counter of `minute` (one UpdateItem, 1 write unit), kept an hour. */
export async function addDeferrals(db: Db, provider: MailboxProvider, minute: number, n = 1, shard = Math.floor(Math.random() * PROVIDER_DEFERRAL_SHARDS)): Promise<void> {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: providerDeferralKey(provider, minute, shard),
      UpdateExpression: 'ADD #deferred :n SET #ttl = :ttl',
      // `deferred` is a reserved word of DynamoDB's expressions.
      ExpressionAttributeNames: { '#deferred': 'deferred', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':n': n, ':ttl': minute + 60 + DEFERRAL_ITEM_SECONDS },
    }),
  );
}

/** The deferrals counted for each provider in `minute` (one BatchGet of every shard of each). */
export async function deferralsIn(db: Db, providers: readonly MailboxProvider[], minute: number): Promise<Map<MailboxProvider, number>> {
  const totals = new Map<MailboxProvider, number>(providers.map((p) => [p, 0]));
  if (providers.length === 0) return totals;
  const items = await batchGetAll(db, providers.flatMap((p) => providerDeferralKeys(p, minute).map((key) => ({ ...key }))));
  for (const item of items) {
    const provider = String(item.pk).split('#')[1] as MailboxProvider;
    totals.set(provider, (totals.get(provider) ?? 0) + Number(item.deferred ?? 0));
  }
  return totals;
}
