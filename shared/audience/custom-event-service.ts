import { randomUUID } from 'node:crypto';
import { badRequest } from '../errors';
import type { PageRequest } from '../http/pagination';
import type { Clock } from '../ports';
import type { Db } from '../store/client';
import { parseBulkEvents, parseEventInput, parseEventListQuery, presentEvent, type CustomEvent, type CustomEventInput } from './custom-event';
import { pageEvents, putEvents } from './custom-event-repository';
import { upsertLeads } from './lead-upsert';
import { MAX_LIST_DEPTH } from './lead-service';

/** Records validated events: their leads first (an unknown email becomes a lead with empty data), then the events, 25 per BatchWrite. */
async function record(db: Db, clock: Clock, projectId: string, inputs: readonly CustomEventInput[]) {
  const emails = [...new Set(inputs.map((i) => i.email))];
  const { results } = await upsertLeads(db, clock, projectId, emails.map((email) => ({ email, segmentIds: [] })));
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
  return { events, createdLeads: results.filter((r) => r.created).length };
}

/** POST /v1/events: one event; answers its id, its lead's id and whether the lead was created. */
export async function trackEvent(db: Db, clock: Clock, projectId: string, body: unknown) {
  const { events, createdLeads } = await record(db, clock, projectId, [parseEventInput(body)]);
  return { success: true, event_id: events[0].id, recipient_id: events[0].recipient_id, created_lead: createdLeads > 0 };
}

/** POST /v1/events/bulk: every element checked first (a 400 names the index, nothing recorded), then all recorded. */
export async function trackEvents(db: Db, clock: Clock, projectId: string, body: unknown) {
  const { events, createdLeads } = await record(db, clock, projectId, parseBulkEvents(body));
  return { success: true, total: events.length, created_leads: createdLeads };
}

/** GET /v1/events: by `email` and `event`, `since`/`until` inclusive, newest timestamp first. */
export async function listEvents(db: Db, projectId: string, page: PageRequest, query: Readonly<Record<string, string | undefined>>) {
  const { email, event, since, until } = parseEventListQuery(query);
  const offset = (page.page - 1) * page.perPage;
  if (offset + page.perPage > MAX_LIST_DEPTH) throw badRequest(`page * per_page may not exceed ${MAX_LIST_DEPTH}; narrow the list with email, event, since or until`);
  const { events, total } = await pageEvents(db, projectId, { email, event, since, until }, offset, page.perPage);
  return { events: events.map(presentEvent), total };
}
