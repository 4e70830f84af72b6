/**
 * The lead signals the audience reports (shared/platform/core/lead-signals.ts) and their keys. A key
 * names one occurrence, so a receiver that sees it twice (a redelivered step, a replayed import
 * chunk) acts once; each is built from what the write that reports it already holds, never from an
 * extra read.
 */
import type { LeadSignal } from '../../platform/core/lead-signals';
import { tagsOf } from './lead';

type LeadRef = { id: string; email: string };

/** A lead was created: one occurrence per lead, ever. */
export const leadCreatedSignal = (lead: LeadRef): LeadSignal => ({ kind: 'lead_created', lead_id: lead.id, email: lead.email, key: `lead:${lead.id}` });

/** The tags `after` holds that `before` did not, each keyed by the lead version that added it. */
export function tagsAddedSignals(lead: LeadRef & { version: number }, before: Record<string, unknown> | undefined, after: Record<string, unknown>): LeadSignal[] {
  const had = new Set(tagsOf(before ?? {}));
  return tagsOf(after)
    .filter((tag) => !had.has(tag))
    .map((tag) => ({ kind: 'tag_added', lead_id: lead.id, email: lead.email, tag, key: `tag:${tag}:${lead.version}` }));
}

/** A recorded custom event: its id is the occurrence. */
export const eventSignal = (event: { id: string; recipient_id: string; email: string; event: string; properties: Record<string, unknown> }): LeadSignal => ({
  kind: 'event',
  lead_id: event.recipient_id,
  email: event.email,
  event: event.event,
  properties: event.properties,
  key: event.id,
});

/**
 * Static memberships a write added or removed, keyed by the segment and the write's time (`at`,
 * ISO): a lead that leaves and joins again later enters again.
 */
export function staticMembershipSignals(lead: LeadRef, change: { added: readonly string[]; removed: readonly string[] }, at: string): LeadSignal[] {
  return [
    ...change.added.map((segmentId): LeadSignal => ({ kind: 'segment_entered', lead_id: lead.id, email: lead.email, segment_id: segmentId, key: `segment:${segmentId}:entered:${at}` })),
    ...change.removed.map((segmentId): LeadSignal => ({ kind: 'segment_left', lead_id: lead.id, email: lead.email, segment_id: segmentId, key: `segment:${segmentId}:left:${at}` })),
  ];
}

/** A dynamic segment's evaluation found the lead new in (or gone from) its generation: one occurrence per generation. */
export const dynamicMembershipSignal = (kind: 'segment_entered' | 'segment_left', lead: LeadRef, segmentId: string, generation: number): LeadSignal => ({
  kind,
  lead_id: lead.id,
  email: lead.email,
  segment_id: segmentId,
  key: `segment:${segmentId}:${kind === 'segment_entered' ? 'entered' : 'left'}:g${generation}`,
});
