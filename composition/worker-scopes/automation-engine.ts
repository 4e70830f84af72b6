/**
 * A worker's scope (BatchScope, shared/platform/queue-worker/batch-handler.ts): what the records of one SQS
 * batch share, the services and the counters several features gather and write once at its end.
 * One file per worker, so a function reaches only its own scope.
 */
import type { Engine } from '../../shared/marketing/automations/engine';
import { AutomationCounterBatch } from '../../shared/marketing/automations/run-counters';
import type { BatchScope } from '../../shared/platform/queue-worker/batch-handler';
import { services } from '../services';

/** The automation engine's scope: its counters, one ADD per automation at the end of the batch (never throws). */
export const automationEngineScope: BatchScope<Engine> = {
  start: () => ({ deps: services(), tally: new AutomationCounterBatch() }),
  finish: async ({ deps, tally }) => {
    await tally.flush(deps.db);
  },
};
