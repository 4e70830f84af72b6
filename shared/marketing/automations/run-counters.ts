import { logger } from '../../platform/core/logger';
import type { Db } from '../../platform/store/client';
import { PendingCounts } from '../../platform/store/counter-add';
import { automationRunCounter, automationStepCounter } from '../../platform/store/keys';
import { addAutomationCounts } from './automation-run-gateway';

/** A run total an invocation adds to (`waiting` goes up and down). */
export type RunCounterField = 'entered' | 'waiting' | 'completed' | 'exited' | 'failed' | 'dropped';
/** A step figure the engine adds to (delivered, opened and clicked come from the mail pipeline's tally). */
export type StepCounterField = 'entered' | 'completed' | 'exited' | 'failed' | 'sent';

/**
 * The counters one engine invocation (one SQS batch) gathers, written with one ADD per automation
 * to a random shard of its counters at the end of the batch: a hundred runs stepping cost one write
 * unit, not a hundred. A crash before the flush loses the batch's tallies (the statistics run a
 * little low); it never loses or repeats a step.
 */
export class AutomationCounterBatch {
  private readonly pending = new PendingCounts(addAutomationCounts, (automationId, error) => logger.error('Automation counter flush failed', { automationId, error }));

  /** Adds `n` to a run total of an automation. */
  run(automationId: string, field: RunCounterField, n = 1): void {
    this.pending.add(automationId, automationRunCounter(field), n);
  }

  /** Adds `n` to one step's figure. */
  step(automationId: string, stepId: string, field: StepCounterField, n = 1): void {
    this.pending.add(automationId, automationStepCounter(stepId, field), n);
  }

  /** What was gathered for one automation (tests read it). */
  countsOf(automationId: string): Record<string, number> {
    return this.pending.countsOf(automationId);
  }

  /** Writes every gathered increment (never throws: the steps are recorded whatever happens here); the batch is empty afterwards. */
  flush(db: Db): Promise<void> {
    return this.pending.flush(db);
  }
}
