import { logger } from '../../platform/core/logger';
import type { Db } from '../../platform/store/client';
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
  private readonly pending = new Map<string, Map<string, number>>();

  /** Adds `n` to a run total of an automation. */
  run(automationId: string, field: RunCounterField, n = 1): void {
    this.add(automationId, automationRunCounter(field), n);
  }

  /** Adds `n` to one step's figure. */
  step(automationId: string, stepId: string, field: StepCounterField, n = 1): void {
    this.add(automationId, automationStepCounter(stepId, field), n);
  }

  private add(automationId: string, attribute: string, n: number): void {
    const counts = this.pending.get(automationId) ?? new Map<string, number>();
    counts.set(attribute, (counts.get(attribute) ?? 0) + n);
    this.pending.set(automationId, counts);
  }

  /** What was gathered for one automation (tests read it). */
  countsOf(automationId: string): Record<string, number> {
    return Object.fromEntries(this.pending.get(automationId) ?? []);
  }

  /** Writes every gathered increment (never throws: the steps are recorded whatever happens here); the batch is empty afterwards. */
  async flush(db: Db): Promise<void> {
    const entries = [...this.pending.entries()];
    this.pending.clear();
    await Promise.all(
      entries.map(([automationId, counts]) =>
        addAutomationCounts(db, automationId, Object.fromEntries(counts)).catch((error: unknown) => logger.error('Automation counter flush failed', { automationId, error: error as Error })),
      ),
    );
  }
}
