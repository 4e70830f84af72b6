/**
 * A worker's scope (BatchScope, shared/platform/queue-worker/batch-handler.ts): what the records of one SQS
 * batch share, the services and the counters several features gather and write once at its end.
 * The features stay unaware of each other; composition/ puts their batch objects side by side. One
 * file per worker, so a function reaches only its own scope (its settings and bundle stay its own).
 */
import { CampaignCounterBatch } from '../../shared/marketing/campaigns/campaign-counters';
import type { Services } from '../../shared/platform/core/dependencies';
import type { BatchScope } from '../../shared/platform/queue-worker/batch-handler';
import { flushCounters } from '../../shared/identities/stats/counter-flush';
import { CounterBatch } from '../../shared/identities/stats/domain-stats';
import { services } from '../services';

/** The fan-out worker's batch (batch-fanout): the campaign and hourly counters of the recipients it left out. */
export interface FanoutBatch {
  readonly deps: Services;
  readonly campaigns: CampaignCounterBatch;
  readonly stats: CounterBatch;
}

/** The fan-out worker's scope. */
export const fanoutScope: BatchScope<FanoutBatch> = {
  start: () => ({ deps: services(), campaigns: new CampaignCounterBatch(), stats: new CounterBatch() }),
  finish: async ({ deps, campaigns, stats }) => {
    await Promise.all([campaigns.flush(deps.db), flushCounters(deps, stats)]);
  },
};
