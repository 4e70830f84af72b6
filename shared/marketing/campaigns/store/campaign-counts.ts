import { addCounts } from '../../../platform/store/counter-add';
import { batchGetAll } from '../../../platform/store/batch-get';
import type { Db } from '../../../platform/store/client';
import { CAMPAIGN_COUNTER_SHARDS, campaignCounterKey, campaignCounterKeys } from '../../../platform/store/keys';

/**
 * A campaign's counts, kept as its mails and events happen (never by counting activity records),
 * in CAMPAIGN_COUNTER_SHARDS items `CAMPSTAT#<id>#<shard>`:
 * - `released`: recipients the engine handed to the send pipeline;
 * - `sent`, `failed`, `suppressed`, `cancelled`: what the send pipeline made of them;
 * - `delivered`, `hard_bounced`, `soft_bounced`, `complained`: SES events;
 * - `opened`, `machine_opened`, `clicked`: first human open, first machine open (Apple Mail Privacy
 *   Protection and other prefetchers), first click, per mail;
 * - `unsubscribed`.
 */
export const CAMPAIGN_COUNTER_FIELDS = [
  'released',
  'sent',
  'failed',
  'suppressed',
  'cancelled',
  'delivered',
  'hard_bounced',
  'soft_bounced',
  'complained',
  'opened',
  'machine_opened',
  'clicked',
  'unsubscribed',
] as const;
export type CampaignCounterField = (typeof CAMPAIGN_COUNTER_FIELDS)[number];
export type CampaignCounts = Record<CampaignCounterField, number>;

/** A counter shard picked at random, so that concurrent writers rarely meet on one item. */
export const randomCounterShard = (): number => Math.floor(Math.random() * CAMPAIGN_COUNTER_SHARDS);

/** Adds the increments to one shard of the campaign's counters: one UpdateItem (1 write unit), nothing when every increment is 0. */
export async function addCampaignCounts(db: Db, campaignId: string, counts: Partial<CampaignCounts>, shard: number = randomCounterShard()): Promise<void> {
  await addCounts(db, campaignCounterKey(campaignId, shard), counts as Record<string, number>);
}

/** A campaign's counts, summed over its shards (one BatchGet of 8 keys). */
export async function readCampaignCounts(db: Db, campaignId: string): Promise<CampaignCounts> {
  const totals = Object.fromEntries(CAMPAIGN_COUNTER_FIELDS.map((f) => [f, 0])) as CampaignCounts;
  const items = await batchGetAll(db, campaignCounterKeys(campaignId).map((key) => ({ ...key })));
  for (const item of items) for (const f of CAMPAIGN_COUNTER_FIELDS) totals[f] += Number(item[f] ?? 0);
  return totals;
}
