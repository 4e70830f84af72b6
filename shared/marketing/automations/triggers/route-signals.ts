/**
 * Which engine messages a project's lead signals call for, given its active trigger table: pure, so
 * the rules read as data. A signal an automation's trigger names becomes an entrant of that
 * automation (`enter`, its key the signal's); an event an exit goal or a wait_for_event step listens
 * for becomes one `lead_event`; a segment an exit rule names, left, becomes `segment_left`.
 * Nothing listening: no message.
 */
import type { LeadSignal } from '../../../platform/core/lead-signals';
import type { TriggerEntry } from '../automation';
import { AUTOMATION_LIMITS, type Trigger } from '../definition';
import type { EngineMessage, Entrant } from '../engine-messages';
import { matchesProperties } from './property-match';

/** Entrants an `enter` message carries at most. */
export const ENTRANTS_PER_MESSAGE = 100;
/** Bytes of entrants a message carries at most: under SQS's 256 KB with room for the envelope. */
export const ENTRANT_BYTES_PER_MESSAGE = 200 * 1024;
/** Leads a `segment_left` message names at most (ids of 36 characters: about 40 KB). */
export const LEAD_IDS_PER_MESSAGE = 1000;

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** Whether a trigger starts on this signal. */
export function triggerMatches(trigger: Trigger, signal: LeadSignal): boolean {
  switch (trigger.type) {
    case 'event':
      return signal.kind === 'event' && signal.event === trigger.event && matchesProperties(trigger.conditions, signal.properties);
    case 'lead_created':
      return signal.kind === 'lead_created';
    case 'tag_added':
      return signal.kind === 'tag_added' && signal.tag === trigger.tag;
    case 'segment_entered':
      return signal.kind === 'segment_entered' && signal.segment_id === trigger.segment_id;
    default:
      // Dates are walked daily (date-walks.ts); manual entries come from the enroll route.
      return false;
  }
}

/**
 * The event's properties a run keeps: the top-level properties in order while their size stays
 * within AUTOMATION_LIMITS.contextBytes (the API already caps an event's at 16 KB, so this rarely cuts).
 */
export function boundedProperties(properties: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (bytes(properties) <= AUTOMATION_LIMITS.contextBytes) return { ...properties };
  const kept: Record<string, unknown> = {};
  let size = 2;
  for (const [name, value] of Object.entries(properties)) {
    const more = bytes({ [name]: value }) - 1;
    if (size + more > AUTOMATION_LIMITS.contextBytes) continue;
    kept[name] = value;
    size += more;
  }
  return kept;
}

/** The entrant a signal makes. */
function entrantOf(signal: LeadSignal): Entrant {
  return { lead_id: signal.lead_id, email: signal.email, key: signal.key, ...(signal.kind === 'event' ? { properties: boundedProperties(signal.properties) } : {}) };
}

/** Splits entrants into messages of at most ENTRANTS_PER_MESSAGE and ENTRANT_BYTES_PER_MESSAGE. */
export function chunkEntrants(entrants: readonly Entrant[]): Entrant[][] {
  const chunks: Entrant[][] = [];
  let current: Entrant[] = [];
  let size = 0;
  for (const entrant of entrants) {
    const more = bytes(entrant);
    if (current.length > 0 && (current.length >= ENTRANTS_PER_MESSAGE || size + more > ENTRANT_BYTES_PER_MESSAGE)) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(entrant);
    size += more;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** The engine messages a project's signals call for under its active trigger table. */
export function routeSignals(projectId: string, entries: readonly TriggerEntry[], signals: readonly LeadSignal[]): EngineMessage[] {
  const listenedEvents = new Set(entries.flatMap((e) => [...e.wait_events, ...e.exit.flatMap((x) => (x.type === 'event' ? [x.event] : []))]));
  const exitSegments = new Set(entries.flatMap((e) => e.exit.flatMap((x) => (x.type === 'segment_left' ? [x.segment_id] : []))));

  const entrants = new Map<TriggerEntry, Entrant[]>();
  const leadEvents: EngineMessage[] = [];
  const left = new Map<string, Set<string>>();
  for (const signal of signals) {
    for (const entry of entries) {
      if (!triggerMatches(entry.trigger, signal)) continue;
      const list = entrants.get(entry) ?? [];
      list.push(entrantOf(signal));
      entrants.set(entry, list);
    }
    if (signal.kind === 'event' && listenedEvents.has(signal.event)) {
      leadEvents.push({ kind: 'lead_event', v: 1, project_id: projectId, lead_id: signal.lead_id, event: signal.event, event_id: signal.key, properties: boundedProperties(signal.properties) });
    }
    if (signal.kind === 'segment_left' && exitSegments.has(signal.segment_id)) {
      const leads = left.get(signal.segment_id) ?? new Set<string>();
      leads.add(signal.lead_id);
      left.set(signal.segment_id, leads);
    }
  }

  const messages: EngineMessage[] = [];
  for (const [entry, list] of entrants) {
    for (const chunk of chunkEntrants(list)) messages.push({ kind: 'enter', v: 1, project_id: projectId, automation_id: entry.automation_id, trigger: entry.trigger.type, entrants: chunk });
  }
  messages.push(...leadEvents);
  for (const [segmentId, leads] of left) {
    const ids = [...leads];
    for (let i = 0; i < ids.length; i += LEAD_IDS_PER_MESSAGE) messages.push({ kind: 'segment_left', v: 1, project_id: projectId, lead_ids: ids.slice(i, i + LEAD_IDS_PER_MESSAGE), segment_id: segmentId });
  }
  return messages;
}

/** Whether any active automation of the table starts on entering the segment or ends its runs on leaving it. */
export function listensToSegment(entries: readonly TriggerEntry[], segmentId: string): boolean {
  return entries.some(
    (e) => (e.trigger.type === 'segment_entered' && e.trigger.segment_id === segmentId) || e.exit.some((x) => x.type === 'segment_left' && x.segment_id === segmentId),
  );
}
