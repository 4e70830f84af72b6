/** What the engine's modules share: the services they touch and the invocation's counters. */
import type { Needs } from '../../../platform/core/dependencies';
import type { AutomationCounterBatch } from '../run-counters';

/** The services the engine touches: the table, the queues, the clock, and the mail pipeline's accept (payloads, signing secret, events). */
export type EngineDeps = Needs<'config' | 'db' | 'queue' | 'blobs' | 'clock' | 'tokenSecret' | 'events' | 'leadSignals'>;

/** One invocation of the engine: its services and the counters it gathers (flushed once at the end of the batch). */
export interface Engine {
  readonly deps: EngineDeps;
  readonly tally: AutomationCounterBatch;
}

/** Steps one invocation runs for one run before it queues the rest (a long chain of non-wait steps stays bounded). */
export const MAX_INLINE_STEPS = 20;

/** SQS's longest delay: a wait shorter than this is a delayed message as well as its due entry. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** A message a little early (clocks, the sweep's lookahead) still runs: SQS delays are whole seconds. */
export const EARLY_TOLERANCE_MS = 1_000;
