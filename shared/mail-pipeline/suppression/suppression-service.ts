import type { Needs } from '../../platform/core/dependencies';
import { hasWebhookTargets } from '../events/email-events';
import { suppressionAddedEvent, suppressionRemovedEvent } from './suppression-events';
import { notFound } from '../../platform/core/errors';
import type { Project } from '../../platform/projects/project';
import { normalizeEmail } from '../../platform/mail/addresses';
import { parseReasonFilter, searchPrefix, toAddSuppressions, type AddSuppressionsBody } from './suppression-request';
import { listCursor, type PageRequest } from '../../platform/http/pagination';
import { addSuppressionIfAbsent, deleteSuppression, getSuppression, pageSuppressions, type SuppressionEntry } from './suppression-repository';

/** suppression.removed events per bulk removal (part 6 and 8). */
export const REMOVED_EVENTS_CAP = 200;
export { BULK_LIMIT, parseEmails, toSuppressionEmails } from './suppression-request';

/** Suppresses an address after a hard bounce or complaint; suppression.added only when it is new. */
export async function suppressAutomatically(deps: Needs<'db' | 'clock' | 'events'>, project: Project, entry: SuppressionEntry): Promise<boolean> {
  const added = await addSuppressionIfAbsent(deps.db, entry);
  if (added && hasWebhookTargets(project)) await deps.events.publish(suppressionAddedEvent(entry, deps.clock.now().toISOString()));
  return added;
}

/** Adds addresses by hand (`reason: manual`, `source: api`); no suppression.added (it is for automatic ones). */
export async function addManually(deps: Needs<'db' | 'clock'>, project: Project, body: AddSuppressionsBody): Promise<{ added: string[]; already: string[] }> {
  const { emails, description } = toAddSuppressions(body);
  const now = deps.clock.now().toISOString();
  const added: string[] = [];
  const already: string[] = [];
  for (const email of emails) {
    const entry: SuppressionEntry = { project_id: project.id, email, reason: 'manual', source: 'api', description, suppressed_at: now };
    ((await addSuppressionIfAbsent(deps.db, entry)) ? added : already).push(email);
  }
  return { added, already };
}

/**
 * Removes addresses; each one removed emits suppression.removed, up to REMOVED_EVENTS_CAP per call.
 * An address that was not suppressed is reported, not an error (a single-address removal is a 404).
 */
export async function removeAddresses(deps: Needs<'db' | 'clock' | 'events'>, project: Project, emails: string[], removedBy: string): Promise<{ removed: string[]; not_found: string[] }> {
  const removed: string[] = [];
  const missing: string[] = [];
  const notify = hasWebhookTargets(project);
  for (const email of emails) {
    const old = await deleteSuppression(deps.db, project.id, email);
    if (!old) {
      missing.push(email);
      continue;
    }
    removed.push(email);
    if (notify && removed.length <= REMOVED_EVENTS_CAP) {
      await deps.events.publish(suppressionRemovedEvent(project.id, email, deps.clock.now().toISOString(), removedBy));
    }
  }
  return { removed, not_found: missing };
}

/** Removes one address, or 404 when it is not on the list. */
export async function removeOne(deps: Needs<'db' | 'clock' | 'events'>, project: Project, rawEmail: string): Promise<{ email: string; removed: true }> {
  const email = normalizeEmail(rawEmail);
  const { removed } = await removeAddresses(deps, project, [email], 'api');
  if (removed.length === 0) throw notFound(`${email} is not suppressed`);
  return { email, removed: true };
}

/** A suppression entry as part 2 shows it. */
export function presentSuppression(entry: SuppressionEntry) {
  return {
    email: entry.email,
    reason: entry.reason,
    source: entry.source,
    description: entry.description ?? null,
    bounce_type: entry.bounce_type ?? null,
    bounce_subtype: entry.bounce_subtype ?? null,
    complaint_feedback_type: entry.complaint_feedback_type ?? null,
    suppressed_at: entry.suppressed_at,
    removed_at: null,
    removed_by: null,
  };
}

/** One page of the project's suppression list, optionally of one reason and of addresses starting with `search`, from the start or a cursor. */
export async function listSuppressions(deps: Needs<'db'>, projectId: string, page: PageRequest, query: { reason?: string; search?: string; cursor?: string }) {
  const reason = parseReasonFilter(query.reason);
  return pageSuppressions(deps.db, projectId, { ...page, reason, prefix: searchPrefix(query.search) }, listCursor(query, page));
}

/** The project's suppression entry of an address, or the 404 of `GET /v1/suppressions/{email}`. */
export async function requireSuppression(deps: Needs<'db'>, projectId: string, email: string): Promise<SuppressionEntry> {
  const entry = await getSuppression(deps.db, projectId, email);
  if (!entry) throw notFound(`${email} is not suppressed`);
  return entry;
}
