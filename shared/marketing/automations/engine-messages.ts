/**
 * Messages of the `automations` queue (the engine's worker, docs/automations.md). Every message is
 * safe to receive twice: entries are deduplicated by their trigger key, steps are fenced by the
 * run's seq, event deliveries by the run's state.
 */
import * as z from '../../platform/core/zod';

/** A lead the trigger names, with the key that makes its entry unique (an event id, `segment:<id>:<at>`, `enroll:<request id>`...). */
export const entrantSchema = z.object({
  lead_id: z.string(),
  email: z.string(),
  key: z.string(),
  /** The trigger event's properties, for the run's context. */
  properties: z.optional(z.record(z.string(), z.unknown())),
  /** ISO time the run's first step is due (a date trigger's moment); absent: now. */
  start_at: z.optional(z.string()),
});
export type Entrant = z.infer<typeof entrantSchema>;

export const engineMessageSchema = z.discriminatedUnion('kind', [
  /** Leads a trigger names for one automation (up to 100 a message, under SQS's 256 KB). The worker applies the entry rules and starts their runs. */
  z.object({ kind: z.literal('enter'), v: z.literal(1), project_id: z.string(), automation_id: z.string(), trigger: z.string(), entrants: z.array(entrantSchema) }),
  /** Run step `seq` of a run (queued by the engine itself, the sweep, a release). */
  z.object({ kind: z.literal('step'), v: z.literal(1), run_id: z.string(), seq: z.number() }),
  /** A lead's event that a live run may listen for (a wait_for_event step) or end on (an exit rule). */
  z.object({
    kind: z.literal('lead_event'),
    v: z.literal(1),
    project_id: z.string(),
    lead_id: z.string(),
    event: z.string(),
    event_id: z.string(),
    properties: z.record(z.string(), z.unknown()),
  }),
  /** A lead left a segment: live runs with that exit rule end. */
  z.object({ kind: z.literal('segment_left'), v: z.literal(1), project_id: z.string(), lead_ids: z.array(z.string()), segment_id: z.string() }),
  /** Resume of a paused automation: re-queue its held runs, a bounded page a message (`shard`, `cursor` continue). */
  z.object({ kind: z.literal('release'), v: z.literal(1), automation_id: z.string(), shard: z.number(), cursor: z.optional(z.string()) }),
  /** One day's walk of a date-triggered automation over its project's leads, a bounded page a message. */
  z.object({ kind: z.literal('date_walk'), v: z.literal(1), automation_id: z.string(), day: z.string(), shard: z.number(), cursor: z.optional(z.string()) }),
]);

export type EngineMessage = z.infer<typeof engineMessageSchema>;

/** Reads a message body; throws on anything this module did not write (the message goes to the dead-letter queue). */
export const parseEngineMessage = (body: string): EngineMessage => engineMessageSchema.parse(JSON.parse(body));
