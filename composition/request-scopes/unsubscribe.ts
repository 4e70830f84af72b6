/**
 * A request's scope: like a worker's (composition/worker-scopes/), what one request of a public
 * route gathers from several features and writes once at its end. One file per scope, so a function
 * reaches only its own (its settings and bundle stay its own): an unsubscribe counts no domain stat.
 */
import { CampaignCounterBatch } from '../../shared/marketing/campaigns/campaign-counters';
import { flushCampaignCounters } from '../../shared/marketing/campaigns/campaign-counter-flush';
import type { Needs } from '../../shared/platform/core/dependencies';

/** What an unsubscribe counts: its campaign's unsubscribes. */
export interface UnsubscribeCounters {
  readonly campaigns: CampaignCounterBatch;
}

/**
 * Runs `work` (an unsubscribe of the link host) with fresh campaign counters and writes them once it
 * returns. The flush never throws; if `work` throws nothing is written (it is the caller's error).
 */
export async function withUnsubscribeCounters<T>(deps: Needs<'db'>, work: (scope: UnsubscribeCounters) => Promise<T>): Promise<T> {
  const scope: UnsubscribeCounters = { campaigns: new CampaignCounterBatch() };
  const result = await work(scope);
  await flushCampaignCounters(deps, scope.campaigns);
  return result;
}
