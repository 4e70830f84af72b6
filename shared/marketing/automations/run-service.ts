/**
 * The runs side of the automations API: enrolment (queues `enter` messages), an automation's runs,
 * one run with its timeline, and an automation's statistics from its counters.
 */
import { randomUUID } from 'node:crypto';
import type { Lead } from '../../audience/leads/lead';
import { eventConditions, matchesFilter } from '../../audience/leads/audience-filter';
import { getLeadsByEmail, getLeadsByIds } from '../../audience/leads/lead-repository';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { AppError, badRequest, conflict } from '../../platform/core/errors';
import { automationRunCounter, automationStepCounter } from '../../platform/store/keys';
import { getAutomationVersion } from './automation-gateway';
import { requireAutomation, UUID } from './manage-automations';
import { getRun, getRuns, lastEntries, readAutomationCounts, runIdsPage, runTimeline } from './automation-run-gateway';
import { AUTOMATION_LIMITS } from './definition';
import type { EngineMessage, Entrant } from './engine-messages';
import { RUN_STATES } from './run-answers';
import type { AutomationRun, RunStepEntry } from './run';

/** 404 in the automations API's shape: `{error, code: 'NOT_FOUND'}` (another project's id too). */
const notFound = (message: string) => new AppError(404, message, 'NOT_FOUND', { code: 'NOT_FOUND' });
const AUTOMATION_NOT_FOUND = 'Automation not found';

/** A run as the API shows it. */
export function presentRun(run: AutomationRun) {
  return {
    id: run.id,
    automation_id: run.automation_id,
    version: run.version,
    lead_id: run.lead_id,
    email: run.email,
    state: run.state,
    step: run.step ?? null,
    started_at: run.started_at,
    updated_at: run.updated_at,
    ended_at: run.ended_at ?? null,
    end_reason: run.end_reason ?? null,
    due_at: run.due_at ?? null,
    wait_event: run.wait_event ?? null,
    error: run.error ?? null,
  };
}

/** A timeline entry as the API shows it. */
const presentEntry = (entry: RunStepEntry) => ({ seq: entry.seq, step_id: entry.step_id, type: entry.type, at: entry.at, outcome: entry.outcome, detail: entry.detail ?? {}, next: entry.next ?? null });

/** Leads named per `enter` message. */
const ENTRANTS_PER_MESSAGE = 100;

/**
 * `POST /v1/automations/:id/enroll`: 1 to 1,000 leads by id or email, queued to enter an active
 * automation, 100 to a message. Leads the re-entry rule keeps out, and those the entry filter's tag
 * and attribute conditions refuse, are counted and not queued; the engine checks the rest again as
 * they enter.
 */
export async function enrollLeads(deps: Needs<'db' | 'queue' | 'clock'>, caller: ProjectCaller, automationId: string, body: { lead_ids?: string[]; emails?: string[]; properties?: Record<string, unknown> }) {
  const ids = [...new Set(body.lead_ids ?? [])];
  const emails = [...new Set((body.emails ?? []).map((e) => e.trim().toLowerCase()))];
  const count = ids.length + emails.length;
  if (count === 0) throw badRequest('lead_ids or emails must name at least one lead');
  if (count > AUTOMATION_LIMITS.enrollPerCall) throw badRequest(`At most ${AUTOMATION_LIMITS.enrollPerCall} leads can be enrolled per call`);
  const automation = await requireAutomation(deps, caller, automationId);
  if (automation.status !== 'active') throw conflict(`Automation is ${automation.status}`, 'INVALID_STATE', { code: 'INVALID_STATE' });
  const version = await getAutomationVersion(deps.db, automation.id, automation.version);
  if (!version) throw notFound(AUTOMATION_NOT_FOUND);

  const byId = await getLeadsByIds(deps.db, caller.project.id, ids);
  const byEmail = emails.length > 0 ? await getLeadsByEmail(deps.db, caller.project.id, emails) : new Map<string, Lead>();
  const notFoundRefs = [...ids.filter((id) => !byId.some((l) => l.id === id)), ...emails.filter((e) => !byEmail.has(e))];
  const leads = [...new Map([...byId, ...byEmail.values()].map((l) => [l.id, l])).values()];

  let notEligible = 0;
  let eligible = leads;
  const filter = version.entry.filter;
  if (filter && eventConditions(filter).length === 0) {
    eligible = leads.filter((lead) => matchesFilter(filter, lead, new Map()));
    notEligible = leads.length - eligible.length;
  }
  let already = 0;
  if (version.entry.reentry !== 'every_time' && eligible.length > 0) {
    const last = await lastEntries(deps.db, automation.id, eligible.map((l) => l.id));
    const cutoff = deps.clock.now().getTime() - (version.entry.reentry_days ?? 0) * 86_400_000;
    const kept = eligible.filter((lead) => {
      const at = last.get(lead.id);
      return at === undefined || (version.entry.reentry === 'after_days' && Date.parse(at) < cutoff);
    });
    already = eligible.length - kept.length;
    eligible = kept;
  }

  const key = `enroll:${randomUUID()}`;
  const entrants: Entrant[] = eligible.map((lead) => ({ lead_id: lead.id, email: lead.email, key, ...(body.properties ? { properties: body.properties } : {}) }));
  const messages: EngineMessage[] = [];
  for (let i = 0; i < entrants.length; i += ENTRANTS_PER_MESSAGE) {
    messages.push({ kind: 'enter', v: 1, project_id: caller.project.id, automation_id: automation.id, trigger: 'manual', entrants: entrants.slice(i, i + ENTRANTS_PER_MESSAGE) });
  }
  if (messages.length > 0) await deps.queue.sendBatch('automations', messages);
  return { success: true as const, enrolled: entrants.length, already_enrolled: already, not_found: notFoundRefs, not_eligible: notEligible };
}

/** Runs a list page reads at most (each page reads its ids, then the runs). */
const MAX_RUNS_PER_PAGE = 100;

/** `GET /v1/automations/:id/runs`: newest first, `state` filtered within the page read, `next_cursor` to read on. */
export async function listAutomationRuns(deps: Needs<'db'>, caller: ProjectCaller, automationId: string, query: { state?: string; per_page?: string; cursor?: string }) {
  const automation = await requireAutomation(deps, caller, automationId);
  const state = query.state || undefined;
  if (state !== undefined && !(RUN_STATES as readonly string[]).includes(state)) throw badRequest(`state must be one of ${RUN_STATES.join(', ')}`);
  const perPage = query.per_page === undefined || query.per_page === '' ? 50 : Number(query.per_page);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_RUNS_PER_PAGE) throw badRequest(`per_page must be between 1 and ${MAX_RUNS_PER_PAGE}`);
  const after = query.cursor ? decodeRunCursor(query.cursor) : undefined;
  const page = await runIdsPage(deps.db, automation.id, after, perPage);
  const runs = await getRuns(deps.db, page.ids);
  const order = new Map(page.ids.map((id, i) => [id, i]));
  const shown = runs.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0)).filter((run) => state === undefined || run.state === state);
  return { success: true as const, data: shown.map(presentRun), next_cursor: page.last ? Buffer.from(page.last, 'utf8').toString('base64url') : null };
}

/** A runs cursor's list position, or 400. */
function decodeRunCursor(cursor: string): string {
  const decoded = /^[A-Za-z0-9_-]{1,512}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!/^\d{4}-\d{2}-\d{2}T[^#]+#[0-9a-f-]{36}$/.test(decoded)) throw badRequest('cursor is not a cursor of this list');
  return decoded;
}

/** `GET /v1/automation-runs/:id`: a run of the caller's project with its timeline. */
export async function readRun(deps: Needs<'db'>, caller: ProjectCaller, runId: string) {
  const run = UUID.test(runId) ? await getRun(deps.db, runId.toLowerCase()) : undefined;
  if (!run || run.project_id !== caller.project.id) throw notFound('Run not found');
  const timeline = await runTimeline(deps.db, run.id);
  return { success: true as const, data: { ...presentRun(run), timeline: timeline.map(presentEntry) } };
}

/** `GET /v1/automations/:id/stats`: runs by state and each step of the current version, from the counters. */
export async function automationStats(deps: Needs<'db'>, caller: ProjectCaller, automationId: string) {
  const automation = await requireAutomation(deps, caller, automationId);
  const [version, counts] = await Promise.all([getAutomationVersion(deps.db, automation.id, automation.version), readAutomationCounts(deps.db, automation.id)]);
  const n = (attribute: string) => Math.max(0, counts.get(attribute) ?? 0);
  const runs = { entered: n(automationRunCounter('entered')), waiting: n(automationRunCounter('waiting')), completed: n(automationRunCounter('completed')), exited: n(automationRunCounter('exited')), failed: n(automationRunCounter('failed')) };
  const active = Math.max(0, runs.entered - runs.waiting - runs.completed - runs.exited - runs.failed);
  const steps = (version?.steps ?? []).map((step) => {
    const figure = (field: string) => n(automationStepCounter(step.id, field));
    const [entered, completed, exited, failed] = [figure('entered'), figure('completed'), figure('exited'), figure('failed')];
    return {
      id: step.id,
      type: step.type,
      entered,
      completed,
      exited,
      failed,
      waiting: Math.max(0, entered - completed - exited - failed),
      sent: figure('sent'),
      delivered: figure('delivered'),
      opened: figure('opened'),
      clicked: figure('clicked'),
    };
  });
  return { success: true as const, data: { runs: { entered: runs.entered, active, waiting: runs.waiting, completed: runs.completed, exited: runs.exited, failed: runs.failed }, steps } };
}
