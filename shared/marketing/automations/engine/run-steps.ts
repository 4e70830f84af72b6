/**
 * How a run moves (docs/automations.md, "How runs move"). A step of seq `s`: its decision is put as
 * timeline entry STEP#s (a redo finds it and follows it), then its effect, keyed by (run, s), then
 * the run moves, fenced by `seq = s`. Whoever loses the fence stops: the step happened once. Steps
 * that do not wait run on inline, up to MAX_INLINE_STEPS an invocation.
 */
import { getAutomation, getAutomationVersion } from '../automation-gateway';
import type { AutomationVersion } from '../automation';
import { dueIndexOf, endRun, endedRunTtl, getRun, holdRun, leaveDueIndex, moveRun, putStepEntry } from '../automation-run-gateway';
import type { Step, WaitForEventStep } from '../definition';
import type { AutomationRun, RunStepEntry } from '../run';
import { decideCondition } from './condition-step';
import { EARLY_TOLERANCE_MS, MAX_INLINE_STEPS, type Engine } from './engine-context';
import { decideSend, sendMail } from './send-email-step';
import { failure, stepContext, type Decision, type StepContext } from './step-context';
import { dueIndexTime, queueStep, withinQueueDelay } from './step-queue';
import { decideUpdate, updateLead } from './update-lead-step';
import { afterDuration, leadZone, nextTimeOfDay } from './wait-times';
import { decideWebhook, postWebhook } from './webhook-step';

/** A run that has ended (nothing more happens to it). */
export const hasEnded = (run: AutomationRun): boolean => run.state === 'completed' || run.state === 'exited' || run.state === 'failed';

/**
 * A `step` message: step `seq` of a run (seq 0: whatever the run waits at, once due; the sweep's
 * wake). A message for a waiting run whose seq is not the run's is stale and does nothing, and so
 * is one for a seq the run has not reached. An older message finding the run active drives it on
 * from where it is: it may be all that is left of an inline chain a crash cut short (a second
 * driver is fenced like any redelivery). One that comes before the run's due time is delayed again
 * (or left to the due index). The automation decides the rest: archived ends the run, paused holds
 * it where it is.
 */
export async function runStepMessage(engine: Engine, runId: string, seq: number): Promise<void> {
  const { db, clock } = engine.deps;
  const run = await getRun(db, runId, true);
  if (!run || hasEnded(run)) return;
  if (seq > run.seq || (run.state === 'waiting' && seq !== 0 && seq !== run.seq)) return;
  // The sweep's wake of a run already on its way (no due time): its own messages move it.
  if (seq === 0 && !run.due_at) return;
  const now = clock.now();
  if (run.due_at && Date.parse(run.due_at) > now.getTime() + EARLY_TOLERANCE_MS) {
    const due = new Date(run.due_at);
    if (withinQueueDelay(due, now)) await queueStep(engine.deps, run.id, run.seq, due);
    return;
  }
  const automation = await getAutomation(db, run.automation_id);
  if (!automation || automation.status === 'archived') return void (await exitRun(engine, run, 'archived'));
  if (automation.status !== 'active') return hold(engine, run);
  const version = await getAutomationVersion(db, run.automation_id, run.version, true);
  if (!version) throw new Error(`Version ${run.version} of automation ${run.automation_id} is missing`);
  await drive(engine, run, version);
}

/** Holds a run whose automation is paused: its seq kept in the held item, and out of the due index so the sweep leaves it be. */
export async function hold(engine: Engine, run: AutomationRun): Promise<void> {
  await holdRun(engine.deps.db, run.automation_id, run.id, run.seq);
  if (run.due_at) await leaveDueIndex(engine.deps.db, run.id, run.seq);
}

/** Runs a run on from where it is: a wake when it waits, else its step; on inline while nothing waits, then the rest queued. */
export async function drive(engine: Engine, run: AutomationRun, version: AutomationVersion): Promise<void> {
  let current: AutomationRun | undefined = run;
  for (let i = 0; i < MAX_INLINE_STEPS && current; i++) {
    current = current.state === 'waiting' ? await wake(engine, current, version) : await runOne(engine, current, version);
  }
  if (current) await queueStep(engine.deps, current.id, current.seq);
}

const stepOf = (version: AutomationVersion, id: string | undefined): Step | undefined => version.steps.find((s) => s.id === id);

/** A waiting run whose time came: past its wait (a wait_for_event's timeout is a branch of its own). Answers the run to go on with inline. */
async function wake(engine: Engine, run: AutomationRun, version: AutomationVersion): Promise<AutomationRun | undefined> {
  const step = stepOf(version, run.step);
  if (step?.type === 'wait_for_event') return resolveWait(engine, run, version, step, { branch: 'timeout' });
  if (step?.type === 'send_email') {
    // A send held while the project's marketing was paused: the same send again, at this seq.
    engine.tally.run(run.automation_id, 'waiting', -1);
    return { ...run, state: 'active', due_at: undefined };
  }
  if (step) engine.tally.step(run.automation_id, step.id, 'completed');
  engine.tally.run(run.automation_id, 'waiting', -1);
  const next = step && 'next' in step ? (step.next ?? null) : null;
  if (next === null) return void (await complete(engine, run, run.seq));
  // The step after the wait runs at this very seq (the wait's own entry is the one before).
  return { ...run, state: 'active', step: next, due_at: undefined };
}

/**
 * Ends a wait_for_event at seq `run.seq`, on the event or on its timeout: the branch is its timeline
 * entry, so of an event and a timeout arriving together the first entry wins and both follow it.
 */
export async function resolveWait(
  engine: Engine,
  run: AutomationRun,
  version: AutomationVersion,
  step: WaitForEventStep,
  outcome: { branch: 'event' | 'timeout'; eventId?: string },
): Promise<AutomationRun | undefined> {
  const now = engine.deps.clock.now();
  const next = (outcome.branch === 'event' ? step.on_event : step.on_timeout) ?? null;
  const { entry, fresh } = await putStepEntry(
    engine.deps.db,
    { run_id: run.id, seq: run.seq, step_id: step.id, type: step.type, at: now.toISOString(), outcome: 'branch', detail: { branch: outcome.branch, ...(outcome.eventId ? { event_id: outcome.eventId } : {}) }, next },
    now,
  );
  if (fresh) {
    engine.tally.step(run.automation_id, step.id, 'completed');
    engine.tally.run(run.automation_id, 'waiting', -1);
  }
  const chosen = entry.next ?? null;
  if (chosen === null) return void (await complete(engine, run, run.seq));
  const moved = await moveRun(engine.deps.db, run.id, 'advance', { step: chosen, seq: run.seq + 1, sends: run.sends, updated_at: now.toISOString() }, run.seq);
  return moved ? { ...run, state: 'active', step: chosen, seq: run.seq + 1, due_at: undefined, wait_event: undefined } : undefined;
}

/** Decides a step (reads only). */
async function decide(ctx: StepContext): Promise<Decision> {
  const { step } = ctx;
  switch (step.type) {
    case 'send_email':
      return decideSend(ctx, step);
    case 'wait':
      return { outcome: 'waiting', detail: { until: afterDuration(ctx.now, step.duration).toISOString() } };
    case 'wait_until': {
      const [lead, project] = await Promise.all([ctx.lead(), ctx.project()]);
      if (!lead) return failure('lead_deleted', 'The lead was deleted');
      const zone = leadZone(lead.data, project?.timezone, step.timezone_attribute);
      return { outcome: 'waiting', detail: { until: nextTimeOfDay(ctx.now, step, zone).toISOString(), zone } };
    }
    case 'wait_for_event':
      return { outcome: 'waiting', detail: { until: afterDuration(ctx.now, step.timeout).toISOString(), event: step.event } };
    case 'condition':
      return decideCondition(ctx, step);
    case 'update_lead':
      return decideUpdate(ctx, step);
    case 'webhook':
      return decideWebhook(ctx, step);
    case 'exit':
      return { outcome: 'exited' };
  }
}

/** A step's effect, as its entry recorded it (keyed by run and seq: a redo does it once). True when a mail was accepted now. */
async function effect(ctx: StepContext, entry: RunStepEntry): Promise<boolean> {
  const { step } = ctx;
  if (step.type === 'send_email' && (entry.outcome === 'sent' || entry.outcome === 'skipped_suppressed')) return sendMail(ctx, step, entry);
  if (step.type === 'update_lead' && entry.outcome === 'updated') await updateLead(ctx, step);
  if (step.type === 'webhook' && entry.outcome === 'posted') await postWebhook(ctx, step, entry);
  return false;
}

/** Runs the step an active run is at, as seq `run.seq`; answers the run to go on with inline, or undefined. */
async function runOne(engine: Engine, run: AutomationRun, version: AutomationVersion): Promise<AutomationRun | undefined> {
  const now = engine.deps.clock.now();
  const planned = stepOf(version, run.step);
  if (!planned) return void (await fail(engine, run, run.step ?? '', { reason: 'step_missing', error: `Step "${run.step}" is not in version ${run.version}` }, now));
  const decision = await decide(stepContext(engine, run, version, planned, run.seq, now));
  const { entry, fresh } = await putStepEntry(engine.deps.db, { run_id: run.id, seq: run.seq, step_id: planned.id, type: planned.type, at: now.toISOString(), ...decision }, now);
  // A redo follows the entry the first try put (its step too: a wait_for_event's branch may have won the seq).
  const step = stepOf(version, entry.step_id) ?? planned;
  const ctx = stepContext(engine, run, version, step, run.seq, now);
  if (fresh) engine.tally.step(run.automation_id, step.id, 'entered');
  if ((await effect(ctx, entry)) && entry.outcome === 'sent') engine.tally.step(run.automation_id, step.id, 'sent');
  return moveAfter(engine, run, step, entry, now);
}

/** Moves a run after step `step` as its entry says: wait, fail, exit, complete, or on to the next step (returned, to run inline). */
async function moveAfter(engine: Engine, run: AutomationRun, step: Step, entry: RunStepEntry, now: Date): Promise<AutomationRun | undefined> {
  const { db } = engine.deps;
  const at = now.toISOString();
  const activityId = step.type === 'send_email' && typeof entry.detail?.activity_id === 'string' ? entry.detail.activity_id : undefined;
  const sends = activityId ? { ...run.sends, [step.id]: activityId } : run.sends;
  if (entry.outcome === 'waiting') {
    const until = String(entry.detail?.until);
    const waitEvent = typeof entry.detail?.event === 'string' ? entry.detail.event : undefined;
    const moved = await moveRun(db, run.id, 'wait', { step: step.id, seq: run.seq + 1, sends, due_at: until, wait_event: waitEvent, updated_at: at, ...dueIndexOf(run.id, dueIndexTime(new Date(until), now)) }, run.seq);
    if (!moved) return undefined;
    engine.tally.run(run.automation_id, 'waiting');
    // Within SQS's delay a message wakes it on time; its due entry, placed past that delay, is the safety net.
    if (withinQueueDelay(new Date(until), now)) await queueStep(engine.deps, run.id, run.seq + 1, new Date(until));
    return undefined;
  }
  if (entry.outcome === 'failed') return void (await fail(engine, run, step.id, { reason: String(entry.detail?.reason ?? 'failed'), error: String(entry.detail?.error ?? '') }, now));
  if (entry.outcome === 'exited') {
    if (await moveRun(db, run.id, 'exit', { ended_at: at, end_reason: 'exit_step', updated_at: at, ttl: endedRunTtl(now) }, run.seq)) {
      engine.tally.step(run.automation_id, step.id, 'exited');
      engine.tally.run(run.automation_id, 'exited');
    }
    return undefined;
  }
  const next = entry.next ?? null;
  if (next === null) {
    if (await moveRun(db, run.id, 'complete', { ended_at: at, end_reason: 'completed', updated_at: at, ttl: endedRunTtl(now) }, run.seq)) {
      engine.tally.step(run.automation_id, step.id, 'completed');
      engine.tally.run(run.automation_id, 'completed');
    }
    return undefined;
  }
  if (!(await moveRun(db, run.id, 'advance', { step: next, seq: run.seq + 1, sends, updated_at: at }, run.seq))) return undefined;
  engine.tally.step(run.automation_id, step.id, 'completed');
  return { ...run, state: 'active', step: next, seq: run.seq + 1, sends, due_at: undefined, wait_event: undefined, updated_at: at };
}

/** Completes a run past its last step (fenced by `seq`). */
async function complete(engine: Engine, run: AutomationRun, seq: number): Promise<void> {
  const now = engine.deps.clock.now();
  const at = now.toISOString();
  if (await moveRun(engine.deps.db, run.id, 'complete', { ended_at: at, end_reason: 'completed', updated_at: at, ttl: endedRunTtl(now) }, seq)) engine.tally.run(run.automation_id, 'completed');
}

/** Fails a run at a step (fenced by its seq): its reason is its end reason, its error what the run shows. */
async function fail(engine: Engine, run: AutomationRun, stepId: string, why: { reason: string; error: string }, now: Date): Promise<void> {
  const at = now.toISOString();
  if (await moveRun(engine.deps.db, run.id, 'fail', { ended_at: at, end_reason: why.reason, error: why.error, updated_at: at, ttl: endedRunTtl(now) }, run.seq)) {
    if (stepId) engine.tally.step(run.automation_id, stepId, 'failed');
    engine.tally.run(run.automation_id, 'failed');
  }
}

/** Ends a live run wherever it is (an exit rule, an archived automation): `exited` with `reason`. True when this call ended it. */
export async function exitRun(engine: Engine, run: AutomationRun, reason: string): Promise<boolean> {
  const now = engine.deps.clock.now();
  const at = now.toISOString();
  if (!(await endRun(engine.deps.db, run.id, { ended_at: at, end_reason: reason, updated_at: at, ttl: endedRunTtl(now) }))) return false;
  if (run.step) engine.tally.step(run.automation_id, run.step, 'exited');
  engine.tally.run(run.automation_id, 'exited');
  if (run.state === 'waiting') engine.tally.run(run.automation_id, 'waiting', -1);
  return true;
}

/** Re-reads a run (strongly consistent) to act on it as it is now. */
export const freshRun = (engine: Engine, runId: string): Promise<AutomationRun | undefined> => getRun(engine.deps.db, runId, true);
