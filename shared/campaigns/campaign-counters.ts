import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../store/client';
import { batchGetAll } from '../store/batch-get';
import { CAMPAIGN_COUNTER_SHARDS, campaignCounterKey, campaignCounterKeys } from '../store/keys';

/**
 * A campaign's counts, kept as its mails and events happen (never by counting activity records):
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

/**
 * Increments gathered over one worker batch and written with one UpdateItem per campaign, to one
 * of its shards at random: fifty mails of a campaign cost one write unit, not fifty.
 */
export class CampaignCounterBatch {
  constructor(private readonly pickShard: () => number = () => Math.floor(Math.random() * CAMPAIGN_COUNTER_SHARDS)) {}

  private readonly pending = new Map<string, Partial<CampaignCounts>>();

  /** Adds `n` to a counter of a campaign. */
  add(campaignId: string, field: CampaignCounterField, n = 1): void {
    const counts = this.pending.get(campaignId) ?? {};
    counts[field] = (counts[field] ?? 0) + n;
    this.pending.set(campaignId, counts);
  }

  /** True when nothing was added since the last flush. */
  get empty(): boolean {
    return this.pending.size === 0;
  }

  /** Writes every gathered increment; the batch is empty afterwards. */
  async flush(db: Db): Promise<void> {
    const entries = [...this.pending.entries()];
    this.pending.clear();
    await Promise.all(
      entries.map(([campaignId, counts]) => {
        const fields = Object.entries(counts).filter(([, n]) => n !== 0);
        if (fields.length === 0) return undefined;
        return db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: campaignCounterKey(campaignId, this.pickShard()),
            UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :v${i}`).join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(fields.map(([f], i) => [`#f${i}`, f])),
            ExpressionAttributeValues: Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])),
          }),
        );
      }),
    );
  }
}

/** A campaign's counts, summed over its shards (one BatchGet of 8 keys). */
export async function readCampaignCounts(db: Db, campaignId: string): Promise<CampaignCounts> {
  const totals = Object.fromEntries(CAMPAIGN_COUNTER_FIELDS.map((f) => [f, 0])) as CampaignCounts;
  const items = await batchGetAll(db, campaignCounterKeys(campaignId).map((key) => ({ ...key })));
  for (const item of items) for (const f of CAMPAIGN_COUNTER_FIELDS) totals[f] += Number(item[f] ?? 0);
  return totals;
}
