/**
 * A worker's scope (BatchScope, shared/platform/queue-worker/batch-handler.ts): what the records of one SQS
 * batch share, the services and the counters several features gather and write once at its end.
 * The features stay unaware of each other; composition/ puts their batch objects side by side. One
 * file per worker, so a function reaches only its own scope (its settings and bundle stay its own).
 */
import { CampaignCounterBatch } from '../../shared/marketing/campaigns/campaign-counters';
import { flushCampaignCounters } from '../../shared/marketing/campaigns/campaign-counter-flush';
import type { Services } from '../../shared/platform/core/dependencies';
import type { ProjectCache } from '../../shared/mail-pipeline/delivery/record-event';
import { AutomationStepTally, withAutomationSteps } from '../../shared/mail-pipeline/delivery/automation-tally';
import type { CampaignTally } from '../../shared/mail-pipeline/delivery/campaign-tally';
import { MailMetrics } from '../../shared/mail-pipeline/metrics/mail-metrics';
import type { BatchScope } from '../../shared/platform/queue-worker/batch-handler';
import { flushCounters } from '../../shared/identities/stats/counter-flush';
import { CounterBatch } from '../../shared/identities/stats/domain-stats';
import { projectsToWatch, watchReputation } from '../../shared/identities/reputation/project-reputation';
import { services } from '../services';

/** The SES events worker's batch: domain and campaign counters, metrics, and the projects read once per batch. */
export interface SesEventsBatch {
  readonly deps: Services;
  readonly counters: CounterBatch;
  readonly projects: ProjectCache;
  readonly metrics: MailMetrics;
  readonly campaigns: CampaignCounterBatch;
  /** Automation mail: its step's delivered, opened and clicked. */
  readonly steps: AutomationStepTally;
  /** What the recorder adds to: the campaign and the automation step counters. */
  readonly tally: CampaignTally;
}

/**
 * The SES events worker's scope: both flushes never throw; one UpdateItem per campaign of the batch.
 * Then the reputation watch checks the projects that had a permanent bounce or a complaint (reads
 * only, unless it pauses their marketing).
 */
export const sesEventsScope: BatchScope<SesEventsBatch> = {
  start: () => {
    const campaigns = new CampaignCounterBatch();
    const steps = new AutomationStepTally();
    return { deps: services(), counters: new CounterBatch(), projects: new Map() as ProjectCache, metrics: new MailMetrics(), campaigns, steps, tally: withAutomationSteps(campaigns, steps) };
  },
  finish: async ({ deps, counters, metrics, campaigns, steps }) => {
    metrics.addCounters(counters);
    const watched = projectsToWatch(counters.projectTotals());
    await Promise.all([flushCounters(deps, counters), flushCampaignCounters(deps, campaigns), steps.flush(deps.db)]);
    metrics.publish();
    await watchReputation(deps, watched);
  },
};
