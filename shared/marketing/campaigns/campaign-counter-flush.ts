import { logger } from '../../platform/core/logger';
import type { Db } from '../../platform/store/client';
import type { CampaignCounterBatch } from './campaign-counters';

/**
 * Writes the campaign counters a worker batch or request gathered. Never throws, like the domain
 * counters' flush (shared/identities/stats/counter-flush.ts): the events are recorded whatever happens here,
 * and failing the batch would only replay events that then count nothing (they are duplicates).
 */
export async function flushCampaignCounters(deps: { readonly db: Db }, counters: CampaignCounterBatch): Promise<void> {
  if (counters.empty) return;
  try {
    await counters.flush(deps.db);
  } catch (error) {
    logger.error('Campaign counter flush failed', { error: error as Error });
  }
}
