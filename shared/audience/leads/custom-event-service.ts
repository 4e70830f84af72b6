import { randomUUID } from 'node:crypto';
import { decodeCursor, encodeCursor, isStringRecord } from '../../platform/http/cursor';
import { listCursor, type PageRequest } from '../../platform/http/pagination';
import type { Needs } from '../../platform/core/dependencies';
import type { Db } from '../../platform/store/client';
import { parseEventListQuery, presentEvent, type CustomEvent, type CustomEventInput } from './custom-event';
import { pageEvents, putEvents } from './custom-event-repository';
import { upsertLeads } from './lead-upsert';
import { eventSignal } from './lead-signal-keys';

type RecordDeps = Needs<'db' | 'clock' | 'leadSignals'>;

/**
 * Records validated events: their leads first (an unknown email becomes a lead with empty data), then
 * the events, 25 per BatchWrite; then reports the leads created and each event.
 */
async function record(deps: RecordDeps, projectId: string, inputs: readonly CustomEventInput[]) {
  const { db, clock } = deps;
  const emails = [...new Set(inputs.map((i) => i.email))];
  const { results, signals } = await upsertLeads(db, clock, projectId, emails.map((email) => ({ email, segmentIds: [] })));
  const leadOf = new Map(results.map((r) => [r.email, r]));
  const now = clock.now().toISOString();
  const events: CustomEvent[] = inputs.map((i) => ({
    id: randomUUID(),
    project_id: projectId,
    email: i.email,
    event: i.event,
    properties: i.properties,
    timestamp: i.timestamp ?? now,
    recipient_id: leadOf.get(i.email)!.id,
    created_at: now,
  }));
  await putEvents(db, events);
  await deps.leadSignals.emit(projectId, [...signals, ...events.map(eventSignal)]);
  return { events, createdLeads: results.filter((r) => r.created).length };
}

/** POST /v1/events: one validated event; answers its id, its lead's id and whether the lead was created. */
export async function trackEvent(deps: RecordDeps, projectId: string, input: CustomEventInput) {
  const { events, createdLeads } = await record(deps, projectId, [input]);
  return { success: true, event_id: events[0].id, recipient_id: events[0].recipient_id, created_lead: createdLeads > 0 };
}

/** POST /v1/events/bulk: the validated events (the route's schema checked every element first: a 400 names the index, nothing recorded), all recorded. */
export async function trackEvents(deps: RecordDeps, projectId: string, inputs: readonly CustomEventInput[]) {
  const { events, createdLeads } = await record(deps, projectId, inputs);
  return { success: true, total: events.length, created_leads: createdLeads };
}

/** GET /v1/events: by `email` and `event`, `since`/`until` inclusive, newest timestamp first; a bounded page, `next_cursor` to read on. */
export async function listEvents(db: Db, projectId: string, page: PageRequest, query: Readonly<Record<string, string | undefined>>) {
  const { email, event, since, until } = parseEventListQuery(query);
  const cursor = listCursor(query, page);
  const from = cursor === undefined ? undefined : decodeCursor(cursor, (v): v is { after: string } => isStringRecord(v, ['after']));
  const { events, next, ...listed } = await pageEvents(db, projectId, { email, event, since, until }, page, from?.after);
  return { events: events.map(presentEvent), listed: { ...listed, nextCursor: next ? encodeCursor({ after: next }) : null } };
}
