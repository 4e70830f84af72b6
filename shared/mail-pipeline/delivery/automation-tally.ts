/**
 * Automation step counters that delivery events, opens and clicks add: an automation's mail carries
 * `automation_step` (`<automation_id>/<step_id>`) on its activity, and the event that made the
 * transition adds 1 to that step's `delivered`, `opened` or `clicked` (once per mail, like the
 * campaign counters of campaign-tally.ts). Gathered over a worker batch or a request and written
 * with one ADD per automation.
 */
import { logger } from '../../platform/core/logger';
import type { Db } from '../../platform/store/client';
import { PendingCounts } from '../../platform/store/counter-add';
import { automationStepCounter } from '../../platform/store/keys';
import { addAutomationStepCounts } from './automation-counter-repository';
import type { CampaignEventCounter, CampaignTally } from './campaign-tally';

/** The delivery figures an automation step shows. */
export const AUTOMATION_EVENT_COUNTERS = ['delivered', 'opened', 'clicked'] as const satisfies readonly CampaignEventCounter[];

/** Increments per automation step, written once per batch (one ADD per automation). */
export class AutomationStepTally {
  private readonly pending = new PendingCounts(addAutomationStepCounts, (automationId, error) => logger.error('Automation step counter flush failed', { automationId, error }));

  /** Adds 1 to a figure of the step `<automation_id>/<step_id>`; other figures and malformed names are ignored. */
  add(automationStep: string, field: CampaignEventCounter): void {
    if (!(AUTOMATION_EVENT_COUNTERS as readonly string[]).includes(field)) return;
    const cut = automationStep.indexOf('/');
    if (cut <= 0) return;
    this.pending.add(automationStep.slice(0, cut), automationStepCounter(automationStep.slice(cut + 1), field));
  }

  /** True when nothing was added since the last flush. */
  get empty(): boolean {
    return this.pending.empty;
  }

  /** Writes what was gathered; never throws (the events are recorded whatever happens here). */
  flush(db: Db): Promise<void> {
    return this.pending.flush(db);
  }
}

/** One tally for the recorders: campaign counters to `campaigns`, automation step counters to `steps`. */
export function withAutomationSteps(campaigns: CampaignTally, steps: AutomationStepTally): CampaignTally {
  return { add: (campaignId, field) => campaigns.add(campaignId, field), addStep: (automationStep, field) => steps.add(automationStep, field) };
}
