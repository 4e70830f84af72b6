import { randomUUID } from 'node:crypto';
import type { ProjectCaller } from '../../platform/auth/authenticate';
import type { Needs } from '../../platform/core/dependencies';
import { AppError, badRequest, conflict } from '../../platform/core/errors';
import { logger } from '../../platform/core/logger';
import * as z from '../../platform/core/zod';
import { boundedPaginationBlock, cursorQuerySchema, listCursor, pageQuerySchema, type PageRequest } from '../../platform/http/pagination';
import { refuseDisabledProject } from '../../platform/projects/project-active';
import { allShards } from '../../platform/store/aggregates/shards';
import { AUTOMATION_HELD_SHARDS } from '../../platform/store/keys';
import type { Automation, AutomationVersion, TriggerEntry } from './automation';
import { AUTOMATION_STATUSES } from './automation-answers';
import {
  deleteDraftAutomation,
  deleteTriggerEntry,
  getAutomation,
  getAutomationVersion,
  moveAutomation,
  pageAutomations,
  putAutomationVersion,
  putNewAutomation,
  putTriggerEntry,
  saveAutomationEdit,
  type AutomationEdit,
} from './automation-gateway';
import { presentAutomation, presentAutomationSummary } from './automation-presenter';
import type { AutomationRequest } from './automation-request';
import { recordTemplateUses, releaseTemplateUses, templateUsesOf } from './automation-template-uses';
import { checkActivation } from './automation-validation';
import type { AutomationDefinition, AutomationStatus } from './definition';
import type { EngineMessage } from './engine-messages';

/**
 * The automation definitions API (docs/automations.md): create, list, read, edit (a draft in place,
 * anything that ran as a new version), delete (a draft) or archive, activate (the checks, the
 * trigger entry, the template uses) and pause. Every write of the automation item is conditional on
 * the revision read, so two requests never both act on one state.
 */

type Deps = Needs<'db' | 'clock' | 'queue'>;

/** An automation's or a run's id: anything else is no id of ours (404, never a read). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 404 NOT_FOUND: a malformed id, an unknown one and another project's are the same answer. */
const automationNotFound = () => new AppError(404, 'Automation not found', 'NOT_FOUND', { code: 'NOT_FOUND' });
/** 409 INVALID_STATE: the status does not allow the request. */
const invalidState = (message: string) => conflict(message, 'INVALID_STATE', { code: 'INVALID_STATE' });
/** 409 CONFLICT: the automation changed between the read and the write. */
const changed = () => conflict('The automation changed while it was being updated; retry', 'CONFLICT', { code: 'CONFLICT' });
const archived = () => invalidState('Automation is archived');

/** The automation of the caller's project, or 404. */
export async function requireAutomation(deps: Needs<'db'>, caller: ProjectCaller, automationId: string | undefined, consistent = true): Promise<Automation> {
  if (!automationId || !UUID.test(automationId)) throw automationNotFound();
  const automation = await getAutomation(deps.db, automationId.toLowerCase(), consistent);
  if (!automation || automation.project_id !== caller.project.id) throw automationNotFound();
  return automation;
}

/** The automation's current version (always written before the item points at it). */
async function currentVersion(deps: Needs<'db'>, automation: Automation): Promise<AutomationVersion> {
  const version = await getAutomationVersion(deps.db, automation.id, automation.version);
  if (!version) throw new Error(`Automation ${automation.id} has no version ${automation.version}`);
  return version;
}

const definitionOf = (v: AutomationDefinition): AutomationDefinition => ({ trigger: v.trigger, entry: v.entry, exit: v.exit, steps: v.steps });

/** The row of an active automation in its project's trigger table. */
function triggerEntryOf(automation: Automation, version: AutomationVersion): TriggerEntry {
  const waitEvents = [...new Set(version.steps.flatMap((s) => (s.type === 'wait_for_event' ? [s.event] : [])))];
  return { automation_id: automation.id, project_id: automation.project_id, version: version.version, trigger: version.trigger, exit: version.exit, wait_events: waitEvents };
}

/** `POST /v1/automations`: a draft at version 1 (no checks: a draft may be saved half built). */
export async function createAutomation(deps: Deps, caller: ProjectCaller, request: AutomationRequest) {
  const now = deps.clock.now().toISOString();
  const automation: Automation = {
    id: randomUUID(),
    project_id: caller.project.id,
    name: request.name,
    status: 'draft',
    version: 1,
    trigger_type: request.definition.trigger.type,
    created_at: now,
    updated_at: now,
    revision: 0,
  };
  // The version first: the item never points at a version that is not there.
  await putAutomationVersion(deps.db, { ...request.definition, automation_id: automation.id, project_id: automation.project_id, version: 1, created_at: now });
  if (!(await putNewAutomation(deps.db, automation))) throw new Error(`Automation ${automation.id} exists already`);
  return { success: true as const, data: presentAutomation(automation, request.definition) };
}

const STATUS_MESSAGE = `status must be one of ${AUTOMATION_STATUSES.join(', ')}`;

/** The query of `GET /v1/automations`: the page, a status, and the cursor of a deeper page. */
export const automationListQuerySchema = z.object({
  ...pageQuerySchema.shape,
  status: z.optional(
    z.string().check(z.refine((v) => v === '' || (AUTOMATION_STATUSES as readonly string[]).includes(v), STATUS_MESSAGE), z.meta({ description: `One of ${AUTOMATION_STATUSES.join(', ')}` })),
  ),
  ...cursorQuerySchema.shape,
});

/** `GET /v1/automations`: the project's automations, newest first, without their definitions. */
export async function listAutomations(deps: Needs<'db'>, caller: ProjectCaller, page: PageRequest, query: { status?: string; cursor?: string }) {
  const status = query.status ? (query.status as AutomationStatus) : undefined;
  if (status && !AUTOMATION_STATUSES.includes(status)) throw badRequest(STATUS_MESSAGE);
  const { automations, ...listed } = await pageAutomations(deps.db, caller.project.id, page, status, listCursor(query, page));
  return { success: true as const, data: automations.map(presentAutomationSummary), pagination: boundedPaginationBlock(page, listed) };
}

/** `GET /v1/automations/:id`: the automation with its current version's definition. */
export async function readAutomation(deps: Needs<'db'>, caller: ProjectCaller, automationId: string | undefined) {
  const automation = await requireAutomation(deps, caller, automationId, false);
  return { success: true as const, data: presentAutomation(automation, definitionOf(await currentVersion(deps, automation))) };
}

/**
 * `PUT /v1/automations/:id` (a full replace of name and definition). A draft no run used has its
 * version replaced in place; anything else gets version n+1, which new runs start on (runs in flight
 * finish on theirs). An active automation's edit must pass the activation checks first, then
 * records the new version's template uses and rewrites its trigger entry.
 */
export async function updateAutomation(deps: Deps, caller: ProjectCaller, automationId: string | undefined, request: AutomationRequest) {
  const automation = await requireAutomation(deps, caller, automationId);
  if (automation.status === 'archived') throw archived();
  const active = automation.status === 'active';
  if (active) await checkActivation(deps, caller.project, request.definition);
  const now = deps.clock.now().toISOString();
  const number = automation.status === 'draft' && !automation.version_used ? automation.version : automation.version + 1;
  const version: AutomationVersion = { ...request.definition, automation_id: automation.id, project_id: automation.project_id, version: number, created_at: now };
  const edit: AutomationEdit = { name: request.name, trigger_type: request.definition.trigger.type, updated_at: now };
  const had = automation.template_uses ?? [];
  let recorded: string[] = [];
  if (active) {
    edit.template_uses = templateUsesOf(version.steps);
    recorded = await recordTemplateUses(deps, automation.project_id, automation.id, edit.template_uses.filter((u) => !had.includes(u)));
  }
  if (!(await saveAutomationEdit(deps.db, automation, version, edit))) {
    await releaseTemplateUses(deps, automation.project_id, automation.id, recorded);
    throw changed();
  }
  const saved: Automation = { ...automation, ...edit, version: number, revision: automation.revision + 1 };
  if (active) {
    await putTriggerEntry(deps.db, triggerEntryOf(saved, version));
    await releaseTemplateUses(deps, automation.project_id, automation.id, had.filter((u) => !edit.template_uses?.includes(u)));
  }
  return { success: true as const, data: presentAutomation(saved, request.definition) };
}

/**
 * `DELETE /v1/automations/:id`: a draft (never activated) is deleted with its versions; anything
 * else is archived: its trigger entry goes (no new entries), its runs end when they next wake, its
 * template uses are released. Archived is final.
 */
export async function deleteAutomation(deps: Deps, caller: ProjectCaller, automationId: string | undefined) {
  const automation = await requireAutomation(deps, caller, automationId);
  if (automation.status === 'draft') {
    if (!(await deleteDraftAutomation(deps.db, automation))) throw changed();
    return { success: true as const, deleted: true as const };
  }
  if (automation.status === 'archived') {
    // An archive that crashed between its writes left the entry or the uses: the retry, answered 409, ends them (idempotent).
    await endActiveParts(deps, automation);
    throw archived();
  }
  const now = deps.clock.now().toISOString();
  if (!(await moveAutomation(deps.db, automation.id, 'archive', { archived_at: now, updated_at: now }, automation.revision))) throw changed();
  await endActiveParts(deps, automation);
  return { success: true as const, archived: true as const };
}

/** Removes an archived automation's trigger entry and releases its template uses. */
async function endActiveParts(deps: Deps, automation: Automation): Promise<void> {
  await deleteTriggerEntry(deps.db, automation.project_id, automation.id);
  await releaseTemplateUses(deps, automation.project_id, automation.id, automation.template_uses ?? []);
}

/**
 * `POST /v1/automations/:id/activate`, from a draft or a paused automation: the checks (409
 * AUTOMATION_INVALID naming the step, nothing written), the template uses, the move, the trigger
 * entry. From paused it also queues one `release` message per held-run shard: the runs that woke
 * while it was paused go on from the step they reached, at the engine's pace.
 */
export async function activateAutomation(deps: Deps, caller: ProjectCaller, automationId: string | undefined) {
  const automation = await requireAutomation(deps, caller, automationId);
  if (automation.status === 'archived') throw archived();
  const version = await currentVersion(deps, automation);
  if (automation.status === 'active') {
    // A retry of an activation that crashed before its trigger entry: the entry is written again (idempotent).
    await putTriggerEntry(deps.db, triggerEntryOf(automation, version));
    throw invalidState('Automation is already active');
  }
  refuseDisabledProject(caller.project);
  await checkActivation(deps, caller.project, version);
  const uses = templateUsesOf(version.steps);
  const had = automation.template_uses ?? [];
  const recorded = await recordTemplateUses(deps, automation.project_id, automation.id, uses.filter((u) => !had.includes(u)));
  const now = deps.clock.now().toISOString();
  if (!(await moveAutomation(deps.db, automation.id, 'activate', { activated_at: now, updated_at: now, template_uses: uses }, automation.revision))) {
    await releaseTemplateUses(deps, automation.project_id, automation.id, recorded);
    throw changed();
  }
  const active: Automation = { ...automation, status: 'active', activated_at: now, updated_at: now, template_uses: uses, revision: automation.revision + 1 };
  await putTriggerEntry(deps.db, triggerEntryOf(active, version));
  await releaseTemplateUses(deps, automation.project_id, automation.id, had.filter((u) => !uses.includes(u)));
  if (automation.status === 'paused') await releaseHeldRuns(deps, active);
  return { success: true as const, data: presentAutomation(active, definitionOf(version)) };
}

/**
 * Queues the release of the runs held while the automation was paused. Without these messages they
 * would stay held: a failure pauses the automation again (so a retry of activate can succeed) and
 * answers 500.
 */
async function releaseHeldRuns(deps: Deps, automation: Automation): Promise<void> {
  const messages: EngineMessage[] = allShards(AUTOMATION_HELD_SHARDS).map((shard) => ({ kind: 'release', v: 1, automation_id: automation.id, shard }));
  try {
    await deps.queue.sendBatch('automations', messages);
  } catch (error) {
    logger.error('Automation release could not be queued; the automation is paused again', { automation_id: automation.id, error: String(error) });
    const now = deps.clock.now().toISOString();
    await moveAutomation(deps.db, automation.id, 'pause', { paused_at: now, updated_at: now });
    await deleteTriggerEntry(deps.db, automation.project_id, automation.id);
    throw new AppError(500, 'Failed to resume automation', 'RESUME_FAILED', {}, { cause: error });
  }
}

/** `POST /v1/automations/:id/pause`, from active: new entries stop (the trigger entry goes); runs that wake are held. */
export async function pauseAutomation(deps: Deps, caller: ProjectCaller, automationId: string | undefined) {
  const automation = await requireAutomation(deps, caller, automationId);
  if (automation.status === 'archived') throw archived();
  if (automation.status === 'paused') {
    // A retry of a pause that crashed before removing the trigger entry removes it (idempotent).
    await deleteTriggerEntry(deps.db, automation.project_id, automation.id);
    throw invalidState('Automation is already paused');
  }
  if (automation.status === 'draft') throw invalidState('A draft automation cannot be paused; only an active one');
  const now = deps.clock.now().toISOString();
  if (!(await moveAutomation(deps.db, automation.id, 'pause', { paused_at: now, updated_at: now }, automation.revision))) throw changed();
  await deleteTriggerEntry(deps.db, automation.project_id, automation.id);
  const paused: Automation = { ...automation, status: 'paused', paused_at: now, updated_at: now, revision: automation.revision + 1 };
  return { success: true as const, data: presentAutomation(paused, definitionOf(await currentVersion(deps, automation))) };
}
