/** What the engine reads about a run's lead: the lead itself, and whether it matches an audience filter (its events included). */
import { eventConditions, eventSince, matchesFilter, type AudienceFilter, type EventCondition } from '../../../audience/leads/audience-filter';
import { leadDidEvent } from '../../../audience/leads/custom-event-repository';
import type { Lead } from '../../../audience/leads/lead';
import { getLeadByEmail, getLeadById } from '../../../audience/leads/lead-repository';
import type { Db } from '../../../platform/store/client';
import type { PropertyCondition } from '../definition';

/** The run's lead: by its email (one read), else by id (the lead changed its email since); undefined once deleted. */
export async function runLead(db: Db, projectId: string, leadId: string, email: string): Promise<Lead | undefined> {
  const byEmail = await getLeadByEmail(db, projectId, email);
  if (byEmail?.id === leadId) return byEmail;
  return getLeadById(db, projectId, leadId);
}

/**
 * Whether a lead matches a filter: its tags and attributes as they are, each event condition
 * answered by the lead's own events (one query of its partition each), as a dynamic segment
 * answers them for a whole shard.
 */
export async function leadMatches(db: Db, projectId: string, lead: Pick<Lead, 'email' | 'data'>, filter: AudienceFilter, now: Date): Promise<boolean> {
  const answers = new Map<EventCondition, Set<string>>();
  for (const c of eventConditions(filter)) {
    answers.set(c, (await leadDidEvent(db, projectId, lead.email, c.event, eventSince(c, now))) ? new Set([lead.email]) : new Set());
  }
  return matchesFilter(filter, lead, answers);
}

/** Whether an event's properties pass every condition (the attribute comparisons of the filter language). */
export function propertiesMatch(properties: Record<string, unknown>, conditions: readonly PropertyCondition[] | undefined): boolean {
  if (!conditions || conditions.length === 0) return true;
  const filter: AudienceFilter = { match: 'all', conditions: conditions.map((c) => ({ attribute: c.property, op: c.op, value: c.value })) };
  return matchesFilter(filter, { email: '', data: properties }, new Map());
}
