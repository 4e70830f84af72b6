import type { Db } from '../../platform/store/client';
import { addCampaignCounts, randomCounterShard, type CampaignCounterField, type CampaignCounts } from './campaign-gateway';

/**
 * Increments gathered over one worker batch and written with one UpdateItem per campaign, to one
 * of its shards at random (the counters are stored by the campaign gateway, store/campaign-counts.ts):
 * fifty mails of a campaign cost one write unit, not fifty.
 */
export class CampaignCounterBatch {
  constructor(private readonly pickShard: () => number = randomCounterShard) {}

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
    await Promise.all(entries.map(([campaignId, counts]) => addCampaignCounts(db, campaignId, counts, this.pickShard())));
  }
}
