import { badRequest, concurrentChange, conflict, notFound } from '../../platform/core/errors';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor';
import type { PageRequest } from '../../platform/http/pagination';
import type { Needs } from '../../platform/core/dependencies';
import type { Db } from '../../platform/store/client';
import { leadShards, segmentMembersPartition, leadOfMembershipPartition } from '../../platform/store/keys';
import { contentionBackoff, transactWrite } from '../../platform/store/transact';
import { TAGS_KEY, leadName, presentLead, tagsOf, withoutTags, type Lead } from './lead';
import { parseLeadListQuery, toUpsertInputs, upsertDataFields, uuidParam, parseEmail, type LeadUpdate, type LeadUpsertBody } from './lead-input';
import {
  countLeads,
  deleteLeadActions,
  getLeadByEmail,
  getLeadById,
  getLeadsByIds,
  getLeadsByKeys,
  leadCounterAction,
  moveLeadActions,
  newestLeadPartitions,
  pageNewestAcrossShards,
  putLeadVersion,
  replaceLeadAction,
} from './lead-repository';
import { dataNames, leadLimitProblem, type LimitNames } from './lead-limits';
import { SEARCH_START, isSearchPosition, searchWindow, type SearchPosition } from './lead-repository';
import { upsertLeads } from './lead-upsert';
import { changeMemberships } from './memberships';
import { marketingStatuses } from './marketing-status';
import { dynamicMemberLeadKeys, dynamicMembersAmong } from './dynamic-members-repository';
import { existingMemberships, getSegment, getSegments, leadSegmentIds, segmentMemberCounts } from './segment-repository';
import { staticMembershipSignals, tagsAddedSignals } from './lead-signal-keys';

/** What a use case that writes leads needs: the table, the time, and where it reports what it did (after the write). */
type WriteDeps = Needs<'db' | 'clock' | 'leadSignals'>;

/** Deepest entry a page may reach: every shard is read to that depth and merged (docs/decisions.md). */
export const MAX_LIST_DEPTH = 10_000;
/**
 * Deepest a search reaches by `page` (page * per_page): the window from the first match is read on
 * every request, so beyond this depth a search pages by `cursor` (each page then reads as little as
 * the first).
 */
export const SEARCH_PAGE_DEPTH = 1_000;
const WRITE_ATTEMPTS = 6;

/** POST /v1/leads: the upsert answer of 4.9, for a validated body; reports the leads created, the tags added and the segments entered. */
export async function upsertFromRequest(deps: WriteDeps, projectId: string, body: LeadUpsertBody) {
  const { results, warnings, signals } = await upsertLeads(deps.db, deps.clock, projectId, toUpsertInputs(body), { dataField: upsertDataFields(body) });
  await deps.leadSignals.emit(projectId, signals);
  return { success: true, total: results.length, leads: results, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** The lead a `:id` names; 400 for a malformed id, 404 when absent. */
export async function requireLead(db: Db, projectId: string, rawId: string | undefined): Promise<Lead> {
  const lead = await getLeadById(db, projectId, uuidParam(rawId, 'lead'));
  if (!lead) throw notFound('Lead not found');
  return lead;
}

/** The lead an `:id` path segment names by URL-encoded email (tags, attributes); 404 when absent. */
export async function requireLeadByEmail(db: Db, projectId: string, rawEmail: string | undefined): Promise<Lead> {
  const lead = await getLeadByEmail(db, projectId, parseEmail(rawEmail, 'email'));
  if (!lead) throw notFound('Lead not found');
  return lead;
}

/** The segments a lead is in: its memberships of segments that still exist. */
async function currentSegmentIds(db: Db, projectId: string, leadId: string): Promise<string[]> {
  const ids = await leadSegmentIds(db, projectId, leadId);
  if (ids.length === 0) return [];
  const existing = await getSegments(db, projectId, ids);
  return ids.filter((id) => existing.has(id));
}

/** GET /v1/leads/:id: the lead with `segment_ids` and its marketing status. */
export async function showLead(db: Db, projectId: string, rawId: string | undefined) {
  const lead = await requireLead(db, projectId, rawId);
  return present(db, projectId, lead);
}

async function present(db: Db, projectId: string, lead: Lead) {
  const [segmentIds, statuses] = await Promise.all([currentSegmentIds(db, projectId, lead.id), marketingStatuses(db, projectId, [lead.email])]);
  return presentLead(lead, { segmentIds, marketingStatus: statuses.get(lead.email) });
}

/**
 * GET /v1/leads: newest first; `segment_id` lists a segment's members, `search` matches the start of
 * the email, then of the name (any case; see shared/audience/leads/lead-search.ts). `total` comes from
 * counters, except for a search: each request reads only its own window of matches, so its `total`
 * counts the matches up to this page, plus one while more follow, and `next_cursor` names them.
 */
export async function listLeads(db: Db, projectId: string, page: PageRequest, query: { search?: string; segment_id?: string; cursor?: string }) {
  const offset = (page.page - 1) * page.perPage;
  const { search, segmentId } = parseLeadListQuery(query);
  const segment = segmentId ? await getSegment(db, projectId, segmentId) : undefined;
  if (segmentId && !segment) throw notFound('Segment not found');

  let leads: Lead[];
  let total: number;
  let nextCursor: string | null | undefined;
  if (search) {
    const searched = await searchPage(db, projectId, search, page, query.cursor || undefined);
    leads = await getLeadsByKeys(db, searched.keys);
    if (segment) leads = await keepMembers(db, projectId, segment, leads);
    nextCursor = searched.next ? encodeCursor(searched.next) : null;
    total = searched.before + leads.length + (searched.next ? 1 : 0);
  } else {
    if (query.cursor) throw badRequest('cursor pages a search only; without search, use page');
    if (offset + page.perPage > MAX_LIST_DEPTH) throw badRequest(`page * per_page may not exceed ${MAX_LIST_DEPTH}; narrow the list with search or segment_id`);
    if (!segment) {
      total = await countLeads(db, projectId);
      leads = await getLeadsByKeys(db, (await pageNewestAcrossShards(db, newestLeadPartitions(projectId), offset, page.perPage)) as { pk: string; sk: string }[]);
    } else if (segment.type === 'static') {
      total = (await segmentMemberCounts(db, projectId)).get(segment.id) ?? 0;
      const parts = leadShards().map((s) => segmentMembersPartition(projectId, segment.id, s));
      const entries = await pageNewestAcrossShards(db, parts, offset, page.perPage);
      leads = await getLeadsByIds(db, projectId, entries.map((e) => leadOfMembershipPartition(String(e.pk))));
    } else {
      const generation = segment.current_generation ?? 0;
      total = generation > 0 ? (segment.evaluation?.member_count ?? 0) : 0;
      leads = generation > 0 ? await getLeadsByKeys(db, await dynamicMemberLeadKeys(db, projectId, segment.id, generation, offset, page.perPage)) : [];
    }
  }
  const statuses = await marketingStatuses(db, projectId, leads.map((l) => l.email));
  return { leads: leads.map((l) => presentLead(l, { marketingStatus: statuses.get(l.email) })), total, ...(nextCursor !== undefined ? { nextCursor } : {}) };
}

/**
 * One page of a search: the window of `per_page` entries at `page` (from the first match, so at most
 * SEARCH_PAGE_DEPTH deep) or at `cursor`, the keys of its leads to show, and where the next starts.
 * `before` is how many leads earlier pages showed, as far as this page knows (its offset by page).
 */
async function searchPage(db: Db, projectId: string, search: string, page: PageRequest, cursor: string | undefined) {
  const offset = (page.page - 1) * page.perPage;
  if (cursor && page.page > 1) throw badRequest('Pass either page or cursor, not both');
  if (!cursor && offset + page.perPage > SEARCH_PAGE_DEPTH) {
    throw badRequest(`page * per_page may not exceed ${SEARCH_PAGE_DEPTH} for a search; pass the previous page's next_cursor as cursor to read on`);
  }
  const from = cursor ? decodeCursor(cursor, (v): v is SearchPosition => isSearchPosition(v, search)) : SEARCH_START;
  const window = await searchWindow(db, projectId, search, from, cursor ? page.perPage : offset + page.perPage);
  const entries = cursor ? window.entries : window.entries.slice(offset);
  const keys = entries.filter((e) => e.shown).map(({ pk, sk }) => ({ pk, sk }));
  return { keys, next: window.next, before: cursor ? 0 : window.entries.slice(0, offset).filter((e) => e.shown).length };
}

/** The leads of a search that are members of a segment (static: their membership items; dynamic: the current run's). */
async function keepMembers(db: Db, projectId: string, segment: { id: string; type: string; current_generation?: number }, leads: Lead[]): Promise<Lead[]> {
  if (segment.type !== 'static') {
    const members = await dynamicMembersAmong(db, projectId, segment.id, segment.current_generation ?? 0, leads.map((l) => l.email));
    return leads.filter((l) => members.has(l.email));
  }
  const members = await existingMemberships(db, projectId, leads.map((l) => ({ leadId: l.id, segmentId: segment.id })));
  return leads.filter((l) => members.has(`${l.id}#${segment.id}`));
}

/**
 * PUT /v1/leads/:id: `email` moves the lead (409 when another lead has it), `data` replaces the
 * whole object (tags kept unless `data._tags` is given), `segment_ids` replaces the static
 * memberships (unknown ids ignored). The lead write is conditional on its version and retried.
 * Reports the tags added and the segments entered and left.
 */
export async function updateLead(deps: WriteDeps, projectId: string, rawId: string | undefined, update: LeadUpdate) {
  const { db, clock } = deps;
  const id = uuidParam(rawId, 'lead');
  let lead: Lead | undefined;
  let previous: Lead | undefined;
  for (let attempt = 1; ; attempt++) {
    const current = await getLeadById(db, projectId, id);
    if (!current) throw notFound('Lead not found');
    const data = update.data ? { ...update.data } : { ...current.data };
    if (update.data && update.data[TAGS_KEY] === undefined && tagsOf(current.data).length > 0) data[TAGS_KEY] = tagsOf(current.data);
    // The kept tags count towards the size: the replaced data is checked as the lead will hold it.
    const problem = update.data ? leadLimitProblem(dataNames(), data, current.data) : undefined;
    if (problem) throw badRequest(problem);
    const name = leadName(data);
    const { name_lc: _old, ...rest } = current;
    const next: Lead = {
      ...rest,
      email: update.email ?? current.email,
      data,
      storeplatform_customer_id: update.storeplatformCustomerId !== undefined ? update.storeplatformCustomerId : current.storeplatform_customer_id,
      updated_at: clock.now().toISOString(),
      version: current.version + 1,
      ...(name ? { name_lc: name } : {}),
    };
    const moving = next.email !== current.email;
    if (moving) {
      const holder = await getLeadByEmail(db, projectId, next.email);
      if (holder) throw conflict(`A lead with email ${next.email} already exists`, 'DUPLICATE_EMAIL');
    }
    const outcome = await transactWrite(db, moving ? moveLeadActions(db, current, next) : [replaceLeadAction(db, next, current.version)]);
    if (outcome.written) {
      lead = next;
      previous = current;
      break;
    }
    if (attempt >= WRITE_ATTEMPTS) throw conflict('The lead changed concurrently; try again', 'CONFLICT');
    await contentionBackoff(attempt);
  }
  const signals = tagsAddedSignals(lead, previous?.data, lead.data);
  if (update.segmentIds) {
    const wanted = await getSegments(db, projectId, update.segmentIds);
    const target = update.segmentIds.filter((s) => wanted.get(s)?.type === 'static');
    const current = await leadSegmentIds(db, projectId, lead.id);
    const changed = await changeMemberships(db, projectId, lead, { add: target.filter((s) => !current.includes(s)), remove: current.filter((s) => !target.includes(s)) });
    signals.push(...staticMembershipSignals(lead, changed, lead.updated_at));
  }
  await deps.leadSignals.emit(projectId, signals);
  return present(db, projectId, lead);
}

/** DELETE /v1/leads/:id: its memberships (and their counts) first, then the lead, its id item and the project count together. */
export async function deleteLead(db: Db, projectId: string, rawId: string | undefined): Promise<void> {
  const id = uuidParam(rawId, 'lead');
  for (let attempt = 1; ; attempt++) {
    const lead = await getLeadById(db, projectId, id);
    if (!lead) throw notFound('Lead not found');
    await changeMemberships(db, projectId, lead, { add: [], remove: await leadSegmentIds(db, projectId, id) });
    const outcome = await transactWrite(db, [...deleteLeadActions(db, lead), leadCounterAction(db, projectId, -1)]);
    if (outcome.written) return;
    if (attempt >= WRITE_ATTEMPTS) throw conflict('The lead changed concurrently; try again', 'CONFLICT');
    await contentionBackoff(attempt);
  }
}

/** POST /v1/leads/:id/segments: every segment must exist as a static segment (404 and nothing added otherwise); answers (and reports) the ids newly added. */
export async function addLeadToSegments(deps: WriteDeps, projectId: string, rawId: string | undefined, segmentIds: readonly string[]): Promise<string[]> {
  const { db } = deps;
  const lead = await requireLead(db, projectId, rawId);
  const found = await getSegments(db, projectId, segmentIds);
  const missing = segmentIds.filter((s) => found.get(s)?.type !== 'static');
  if (missing.length > 0) throw notFound(`Segment not found: ${missing.join(', ')}`);
  const current = await leadSegmentIds(db, projectId, lead.id);
  const { added } = await changeMemberships(db, projectId, lead, { add: segmentIds.filter((s) => !current.includes(s)), remove: [] });
  await deps.leadSignals.emit(projectId, staticMembershipSignals(lead, { added, removed: [] }, deps.clock.now().toISOString()));
  return added;
}

/** DELETE /v1/leads/:id/segments/:segmentId: 404 unless the lead is a member; reports the lead leaving it. */
export async function removeLeadFromSegment(deps: WriteDeps, projectId: string, rawId: string | undefined, rawSegmentId: string | undefined): Promise<void> {
  const { db } = deps;
  const segmentId = uuidParam(rawSegmentId, 'segment');
  const lead = await requireLead(db, projectId, rawId);
  const { removed } = await changeMemberships(db, projectId, lead, { add: [], remove: [segmentId] });
  if (removed.length === 0) throw notFound('Lead is not a member of this segment');
  await deps.leadSignals.emit(projectId, staticMembershipSignals(lead, { added: [], removed }, deps.clock.now().toISOString()));
}

/**
 * Rewrites a lead's data through `change`, conditional on its version, retried on a lost race; the
 * result is held to the per-lead limits (`names`: what the request brought) each time, so
 * concurrent requests cannot together pass one. Reports the tags the rewrite added.
 */
async function rewriteData(
  deps: WriteDeps,
  projectId: string,
  rawEmail: string | undefined,
  names: LimitNames,
  change: (data: Record<string, unknown>) => Record<string, unknown>,
): Promise<Lead> {
  const { db, clock } = deps;
  for (let attempt = 1; ; attempt++) {
    const lead = await requireLeadByEmail(db, projectId, rawEmail);
    const data = change({ ...lead.data });
    const problem = leadLimitProblem(names, data, lead.data);
    if (problem) throw badRequest(problem);
    const name = leadName(data);
    const { name_lc: _old, ...rest } = lead;
    const next: Lead = { ...rest, data, updated_at: clock.now().toISOString(), version: lead.version + 1, ...(name ? { name_lc: name } : {}) };
    if (await putLeadVersion(db, next, lead.version)) {
      await deps.leadSignals.emit(projectId, tagsAddedSignals(next, lead.data, next.data));
      return next;
    }
    if (attempt >= WRITE_ATTEMPTS) throw concurrentChange();
    await contentionBackoff(attempt);
  }
}

/** A tags request brings both the tags and the bytes they add. */
const TAG_NAMES: LimitNames = { data: 'tags', tags: 'tags' };

/** POST /v1/leads/:email/tags: merges tags without duplicates; answers the lead's tags. */
export async function addTags(deps: WriteDeps, projectId: string, rawEmail: string | undefined, tags: readonly string[]): Promise<string[]> {
  const lead = await rewriteData(deps, projectId, rawEmail, TAG_NAMES, (data) => ({ ...data, [TAGS_KEY]: [...new Set([...tagsOf(data), ...tags])] }));
  return tagsOf(lead.data);
}

/** DELETE /v1/leads/:email/tags: removes the given tags; answers the lead's tags. */
export async function removeTags(deps: WriteDeps, projectId: string, rawEmail: string | undefined, tags: readonly string[]): Promise<string[]> {
  const removed = new Set(tags);
  const lead = await rewriteData(deps, projectId, rawEmail, TAG_NAMES, (data) => ({ ...data, [TAGS_KEY]: tagsOf(data).filter((t) => !removed.has(t)) }));
  return tagsOf(lead.data);
}

/** GET /v1/leads/:email/tags. */
export async function leadTags(db: Db, projectId: string, rawEmail: string | undefined): Promise<string[]> {
  return tagsOf((await requireLeadByEmail(db, projectId, rawEmail)).data);
}

/** POST /v1/leads/:email/attributes: a flat object shallow-merged into `data`, `_tags` kept; answers `data` without `_tags`. */
export async function mergeAttributes(deps: WriteDeps, projectId: string, rawEmail: string | undefined, attributes: Record<string, unknown>): Promise<Record<string, unknown>> {
  const lead = await rewriteData(deps, projectId, rawEmail, { data: 'Request body', tags: 'Request body' }, (data) => ({ ...data, ...attributes }));
  return withoutTags(lead.data);
}

/** GET /v1/leads/:email/attributes: `data` without `_tags`. */
export async function leadAttributes(db: Db, projectId: string, rawEmail: string | undefined): Promise<Record<string, unknown>> {
  return withoutTags((await requireLeadByEmail(db, projectId, rawEmail)).data);
}

/** What an automation's update_lead step changes on a lead. */
export interface LeadChanges {
  addTags?: readonly string[];
  removeTags?: readonly string[];
  /** Set in `data`; null removes the attribute. */
  setAttributes?: Readonly<Record<string, unknown>>;
  addSegmentIds?: readonly string[];
  removeSegmentIds?: readonly string[];
}

/**
 * Applies an automation step's changes to a lead (by its email): tags, attributes (null removes one)
 * in one versioned write held to the lead's limits, then its static memberships (unknown or dynamic
 * segments are left out, as PUT /v1/leads/:id does). Idempotent: done twice, the lead ends the same.
 * Answers the segments it added and removed.
 */
export async function applyLeadChanges(deps: WriteDeps, projectId: string, email: string, changes: LeadChanges): Promise<{ added: string[]; removed: string[] }> {
  const { db } = deps;
  const removeTags = new Set(changes.removeTags ?? []);
  const touchesData = (changes.addTags?.length ?? 0) > 0 || removeTags.size > 0 || Object.keys(changes.setAttributes ?? {}).length > 0;
  const lead = touchesData
    ? await rewriteData(deps, projectId, email, { data: 'set_attributes', tags: 'add_tags' }, (data) => {
        const next: Record<string, unknown> = { ...data };
        for (const [name, value] of Object.entries(changes.setAttributes ?? {})) {
          if (name === TAGS_KEY) continue;
          if (value === null) delete next[name];
          else next[name] = value;
        }
        const tags = [...new Set([...tagsOf(data), ...(changes.addTags ?? [])])].filter((t) => !removeTags.has(t));
        return { ...next, [TAGS_KEY]: tags };
      })
    : await requireLeadByEmail(db, projectId, email);
  const wanted = [...(changes.addSegmentIds ?? []), ...(changes.removeSegmentIds ?? [])];
  if (wanted.length === 0) return { added: [], removed: [] };
  const segments = await getSegments(db, projectId, wanted);
  const isStatic = (id: string) => segments.get(id)?.type === 'static';
  const current = await leadSegmentIds(db, projectId, lead.id);
  const changed = await changeMemberships(db, projectId, lead, {
    add: (changes.addSegmentIds ?? []).filter((s) => isStatic(s) && !current.includes(s)),
    remove: (changes.removeSegmentIds ?? []).filter((s) => current.includes(s)),
  });
  // As the API's membership changes do: other automations may start on the segment, or end on leaving it.
  await deps.leadSignals.emit(projectId, staticMembershipSignals(lead, changed, deps.clock.now().toISOString()));
  return changed;
}
