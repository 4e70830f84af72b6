import { automationEngineScope } from '../../composition/worker-scopes/automation-engine';
import { runEngineMessage } from '../../shared/marketing/automations/engine';
import { parseEngineMessage } from '../../shared/marketing/automations/engine-messages';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** Worker of the `automations` queue: entries, run steps, lead events, segment departures, releases and date walks. */
export const handler = sqsBatchHandler((record, engine) => runEngineMessage(engine, parseEngineMessage(record.body)), automationEngineScope);
