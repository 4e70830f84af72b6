/**
 * `enter`: leads a trigger names for one automation. Only an active automation takes them (others
 * are dropped and counted); each lead passes the entry filter and the re-entry rule, gets its run
 * (id uuidv5(automation:lead:key), a conditional put: the same entry delivered again finds its run),
 * and the run's first step runs at once, or waits until the entrant's `start_at`.
 */
import { performance } from 'node:perf_hooks';
import type { Lead } from '../../../audience/leads/lead';
import { getAutomation, getAutomationVersion } from '../automation-gateway';
import type { Automation, AutomationVersion } from '../automation';
import { claimEntry, getRun, putNewRun } from '../automation-run-gateway';
import { AUTOMATION_LIMITS } from '../definition';
import type { Entrant } from '../engine-messages';
import { runIdOf } from '../ids';
import type { AutomationRun } from '../run';
import { EARLY_TOLERANCE_MS, type Engine } from './engine-context';
import { leadMatches, runLead } from './lead-facts';
import { drive } from './run-steps';
import { dueIndexTime, queueStep, withinQueueDelay } from './step-queue';

/** Why an entrant did not enter. */
export type EntryRefusal = 'not_active' | 'lead_missing' | 'not_eligible' | 'already_entered';

/** Wall time one `enter` message may take before it hands its remaining entrants back to the queue (the worker's timeout is 60 s). */
export const ENTRY_BUDGET_MS = 25_000;

/** What one `enter` message did. */
export interface EntryOutcome {
  entered: number;
  /** Entrants queued again in a message of their own, the budget spent. */
  handedBack?: number;
  refused: Partial<Record<EntryRefusal, number>>;
}

/** Handles an `enter` message of one automation. */
export async function enterLeads(engine: Engine, message: { project_id: string; automation_id: string; trigger: string; entrants: Entrant[] }, budgetMs = ENTRY_BUDGET_MS): Promise<EntryOutcome> {
  const outcome: EntryOutcome = { entered: 0, refused: {} };
  const refuse = (why: EntryRefusal, n = 1) => void (outcome.refused[why] = (outcome.refused[why] ?? 0) + n);
  const automation = await getAutomation(engine.deps.db, message.automation_id);
  if (!automation || automation.project_id !== message.project_id || automation.status !== 'active') {
    if (automation) engine.tally.run(automation.id, 'dropped', message.entrants.length);
    refuse('not_active', message.entrants.length);
    return outcome;
  }
  const version = await getAutomationVersion(engine.deps.db, automation.id, automation.version, true);
  if (!version) throw new Error(`Version ${automation.version} of automation ${automation.id} is missing`);
  const started = performance.now();
  for (const [i, entrant] of message.entrants.entries()) {
    // Past the budget, the rest go back on the queue as a message of their own (their keys make a
    // repeat harmless), so a slow batch never runs into the worker's timeout and comes back whole.
    if (i > 0 && performance.now() - started > budgetMs) {
      await engine.deps.queue.send('automations', { ...message, kind: 'enter', v: 1, entrants: message.entrants.slice(i) });
      outcome.handedBack = message.entrants.length - i;
      break;
    }
    const result = await enterOne(engine, automation, version, message.trigger, entrant);
    if (result === 'entered') outcome.entered += 1;
    else refuse(result);
  }
  return outcome;
}

/** The trigger's properties a run keeps (bounded: templates read them as `event.*`). */
function contextOf(properties: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!properties) return {};
  return Buffer.byteLength(JSON.stringify(properties), 'utf8') <= AUTOMATION_LIMITS.contextBytes ? properties : {};
}

/** One entrant: the filter, the re-entry rule, the run, its first step. */
async function enterOne(engine: Engine, automation: Automation, version: AutomationVersion, trigger: string, entrant: Entrant): Promise<'entered' | EntryRefusal> {
  const { db, clock } = engine.deps;
  const now = clock.now();
  const runId = runIdOf(automation.id, entrant.lead_id, entrant.key);
  const existing = await getRun(db, runId, true);
  // The same entry delivered again: its run exists. An active one goes on from where it is (a crash
  // may have cut its inline steps short; its seq fences whatever another worker does meanwhile).
  if (existing) {
    if (existing.state === 'active') {
      const own = existing.version === version.version ? version : await getAutomationVersion(db, automation.id, existing.version, true);
      if (own) await startRun(engine, existing, own);
    }
    return 'already_entered';
  }
  const lead: Lead | undefined = await runLead(db, automation.project_id, entrant.lead_id, entrant.email);
  if (!lead) return 'lead_missing';
  if (version.entry.filter && !(await leadMatches(db, automation.project_id, lead, version.entry.filter, now))) return 'not_eligible';
  if (version.entry.reentry !== 'every_time') {
    const claimed = await claimEntry(db, { automationId: automation.id, leadId: lead.id, key: entrant.key, now, reentry: version.entry.reentry, days: version.entry.reentry_days });
    if (!claimed) return 'already_entered';
  }
  const startAt = entrant.start_at && Date.parse(entrant.start_at) > now.getTime() + EARLY_TOLERANCE_MS ? new Date(entrant.start_at).toISOString() : undefined;
  const run: AutomationRun = {
    id: runId,
    project_id: automation.project_id,
    automation_id: automation.id,
    version: version.version,
    lead_id: lead.id,
    email: lead.email,
    state: 'active',
    step: version.steps[0]?.id,
    seq: 1,
    trigger: { type: trigger, key: entrant.key },
    context: contextOf(entrant.properties),
    sends: {},
    ...(startAt ? { due_at: startAt } : {}),
    started_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  if (!(await putNewRun(db, run, startAt ? dueIndexTime(new Date(startAt), now) : undefined))) return 'already_entered';
  engine.tally.run(automation.id, 'entered');
  await startRun(engine, run, version);
  return 'entered';
}

/** The first step of a new run: inline now, or a delayed message (the due entry covers a start beyond 15 minutes). */
async function startRun(engine: Engine, run: AutomationRun, version: AutomationVersion): Promise<void> {
  const now = engine.deps.clock.now();
  if (run.due_at && Date.parse(run.due_at) > now.getTime() + EARLY_TOLERANCE_MS) {
    const due = new Date(run.due_at);
    if (withinQueueDelay(due, now)) await queueStep(engine.deps, run.id, run.seq, due);
    return;
  }
  await drive(engine, run, version);
}
