/**
 * A worker's scope (BatchScope, shared/platform/queue-worker/batch-handler.ts): what the records of one SQS
 * batch share, the services and the counters several features gather and write once at its end.
 * The features stay unaware of each other; composition/ puts their batch objects side by side. One
 * file per worker, so a function reaches only its own scope (its settings and bundle stay its own).
 */
import { CampaignCounterBatch } from '../../shared/marketing/campaigns/campaign-counters';
import type { Services } from '../../shared/platform/core/dependencies';
import { MailMetrics } from '../../shared/mail-pipeline/metrics/mail-metrics';
import type { BatchScope } from '../../shared/platform/queue-worker/batch-handler';
import { flushCounters } from '../../shared/identities/stats/counter-flush';
import { CounterBatch } from '../../shared/identities/stats/domain-stats';
import { services } from '../services';

/** The send workers' batch (send-worker, batch-send-worker): the domain and campaign counters of what was sent, and the mail metrics. */
export interface SendBatch {
  readonly deps: Services;
  readonly counters: CounterBatch;
  readonly metrics: MailMetrics;
  readonly campaigns: CampaignCounterBatch;
}

/** The send workers' scope: a failed campaign counter write fails the batch (its records come back and count again). */
export const sendWorkerScope: BatchScope<SendBatch> = {
  start: () => ({ deps: services(), counters: new CounterBatch(), metrics: new MailMetrics(), campaigns: new CampaignCounterBatch() }),
  finish: async ({ deps, counters, metrics, campaigns }) => {
    metrics.addCounters(counters);
    await flushCounters(deps, counters);
    await campaigns.flush(deps.db);
    metrics.publish();
  },
};
