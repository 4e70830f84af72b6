/**
 * A request's scope: like a worker's (composition/worker-scopes/), what one request of a public
 * route gathers from several features and writes once at its end. The features stay unaware of
 * each other; composition/ puts their batch objects side by side. One file per scope, so a function
 * reaches only its own (its settings and bundle stay its own).
 */
import { CampaignCounterBatch } from '../../shared/marketing/campaigns/campaign-counters';
import { flushCampaignCounters } from '../../shared/marketing/campaigns/campaign-counter-flush';
import { AutomationStepTally, withAutomationSteps } from '../../shared/mail-pipeline/delivery/automation-tally';
import type { CampaignTally } from '../../shared/mail-pipeline/delivery/campaign-tally';
import type { Needs } from '../../shared/platform/core/dependencies';
import { flushCounters } from '../../shared/identities/stats/counter-flush';
import { CounterBatch } from '../../shared/identities/stats/domain-stats';

/** What an open or a click counts: the domain and project counters, its campaign's, and its automation step's. */
export interface EngagementCounters {
  readonly counters: CounterBatch;
  readonly campaigns: CampaignCounterBatch;
  /** Automation mail: its step's opened and clicked. */
  readonly steps: AutomationStepTally;
  /** What the recorder adds to: the campaign and the automation step counters. */
  readonly tally: CampaignTally;
}

/**
 * Runs `work` (an open or a click of the tracking routes) with fresh counters and writes them once
 * it returns. Both flushes never throw; if `work` throws nothing is written (it is the caller's error).
 */
export async function withEngagementCounters<T>(deps: Needs<'db' | 'clock'>, work: (scope: EngagementCounters) => Promise<T>): Promise<T> {
  const campaigns = new CampaignCounterBatch();
  const steps = new AutomationStepTally();
  const scope: EngagementCounters = { counters: new CounterBatch(), campaigns, steps, tally: withAutomationSteps(campaigns, steps) };
  const result = await work(scope);
  await Promise.all([flushCounters(deps, scope.counters), flushCampaignCounters(deps, scope.campaigns), steps.flush(deps.db)]);
  return result;
}
