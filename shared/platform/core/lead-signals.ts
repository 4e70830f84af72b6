/**
 * A port: what happens to leads that other parts of the product may act on (automations start and end runs
 * on them). The audience wing emits these after its writes succeed; the composition binds the port
 * to the automation dispatcher, which lies above this wing. A signal is emitted after the write it
 * reports, so a crash in between loses it: the writes that emit are the API's and the workers', and
 * both answer only once the signal went out, so the caller's retry (or the queue's redelivery) emits
 * it again; receivers deduplicate by the signal's key.
 */

/** One thing that happened to one lead of a project. `key` is unique per occurrence (an event id, a change's version). */
export type LeadSignal =
  | { kind: 'lead_created'; lead_id: string; email: string; key: string }
  | { kind: 'tag_added'; lead_id: string; email: string; tag: string; key: string }
  | { kind: 'event'; lead_id: string; email: string; event: string; properties: Record<string, unknown>; key: string }
  | { kind: 'segment_entered'; lead_id: string; email: string; segment_id: string; key: string }
  | { kind: 'segment_left'; lead_id: string; email: string; segment_id: string; key: string };

/** Where the audience wing reports lead signals. */
export interface LeadSignals {
  /** Reports signals of one project; resolves once they are safely handed on (or found to concern nothing). */
  emit(projectId: string, signals: readonly LeadSignal[]): Promise<void>;
  /**
   * Whether anything acts on leads entering or leaving a segment: a dynamic segment's evaluation
   * compares its generations (one range read per page) only then.
   */
  listensToSegment(projectId: string, segmentId: string): Promise<boolean>;
}

/** The port when nothing listens (a function without automations' dispatch). */
export const noLeadSignals: LeadSignals = { emit: async () => undefined, listensToSegment: async () => false };
