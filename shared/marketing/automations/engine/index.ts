/**
 * The automation engine (docs/automations.md, "How runs move"): one handler per message of the
 * `automations` queue (engine-messages.ts). Every message is safe to receive twice.
 */
import type { EngineMessage } from '../engine-messages';
import { walkDates } from './date-walk';
import type { Engine } from './engine-context';
import { enterLeads } from './enter';
import { leadEvent, segmentLeft } from './lead-signals';
import { releaseHeld } from './release';
import { runStepMessage } from './run-steps';

export { type Engine, type EngineDeps } from './engine-context';

/** Runs one message of the automation engine. */
export async function runEngineMessage(engine: Engine, message: EngineMessage): Promise<void> {
  switch (message.kind) {
    case 'enter':
      await enterLeads(engine, message);
      return;
    case 'step':
      return runStepMessage(engine, message.run_id, message.seq);
    case 'lead_event':
      return leadEvent(engine, message);
    case 'segment_left':
      return segmentLeft(engine, message);
    case 'release':
      await releaseHeld(engine, message);
      return;
    case 'date_walk':
      await walkDates(engine, message);
      return;
  }
}
