/**
 * The minute sweep of the automation due index (`automation-sweep`): every run that came due within
 * the lookahead since the last sweep gets a wake (`step` seq 0) delayed until its time, ten to an SQS
 * request, and the cursor moves past it. A run still due because the engine is behind is therefore
 * not queued again each minute; a crash before the cursor is saved queues some twice, and the run's
 * state fences the second. After an outage the first sweep takes everything since the cursor.
 */
import type { Needs } from '../../../platform/core/dependencies';
import { logger } from '../../../platform/core/logger';
import { dueRuns, readSweepCursor, saveSweepCursor } from '../automation-run-gateway';
import { delayUntil, stepMessage } from './step-queue';

/** How far ahead a sweep looks: one interval of the schedule plus a margin, so a wake is queued before its time. */
export const AUTOMATION_SWEEP_LOOKAHEAD_SECONDS = 60 + 30;
/** Runs one sweep takes from each shard of the due index (32 shards): more wait for the next minute, the cursor where they start. */
export const AUTOMATION_SWEEP_PER_SHARD = 2_000;

/** What one sweep queued. */
export interface AutomationSweepResult {
  due: number;
  /** Of those, at or past their time (an outage, a backlog): queued without delay. */
  overdue: number;
}

/** Queues a delayed wake for every run due within the lookahead that the cursor has not passed, then moves the cursor. */
export async function sweepAutomationDue(deps: Needs<'db' | 'queue' | 'clock'>): Promise<AutomationSweepResult> {
  const now = deps.clock.now();
  const read = await dueRuns(deps.db, await readSweepCursor(deps.db), new Date(now.getTime() + AUTOMATION_SWEEP_LOOKAHEAD_SECONDS * 1000), AUTOMATION_SWEEP_PER_SHARD);
  const due = read.due;
  const delays = due.map((entry) => delayUntil(new Date(entry.dueAt), now));
  if (due.length > 0) {
    try {
      await deps.queue.sendBatch('automations', due.map((entry) => stepMessage(entry.runId, 0)), { delaySeconds: delays });
    } catch (error) {
      // Whatever was queued stays queued; the next sweep covers the rest.
      logger.error('Automation sweep could not queue every wake', { due: due.length, error: error as Error });
      throw error;
    }
  }
  await saveSweepCursor(deps.db, read.cursor);
  return { due: due.length, overdue: delays.filter((d) => d === 0).length };
}
