/**
 * `lead_event` and `segment_left`: what a lead's event or departure does to its live runs (gsi4).
 * An exit rule (a goal event, leaving a segment) ends each live run of that automation; a run
 * waiting for the event (its property conditions met) takes its `on_event` branch.
 */
import { getAutomation, getAutomationVersion } from '../automation-gateway';
import type { Automation } from '../automation';
import { holdRun, liveRunsOfLead } from '../automation-run-gateway';
import type { AutomationRun } from '../run';
import type { Engine } from './engine-context';
import { propertiesMatch } from './lead-facts';
import { drive, exitRun, freshRun, hasEnded, resolveWait } from './run-steps';

/** The lead's live runs, each with its automation (read once per automation). */
async function liveRuns(engine: Engine, projectId: string, leadId: string): Promise<{ run: AutomationRun; automation: Automation | undefined }[]> {
  const automations = new Map<string, Promise<Automation | undefined>>();
  const out: { run: AutomationRun; automation: Automation | undefined }[] = [];
  for (const { automationId, runId } of await liveRunsOfLead(engine.deps.db, projectId, leadId)) {
    const run = await freshRun(engine, runId);
    if (!run || hasEnded(run)) continue;
    if (!automations.has(automationId)) automations.set(automationId, getAutomation(engine.deps.db, automationId));
    out.push({ run, automation: await automations.get(automationId) });
  }
  return out;
}

/** A lead's event: goal events end runs; a run waiting for it goes on by its `on_event` branch. */
export async function leadEvent(engine: Engine, message: { project_id: string; lead_id: string; event: string; event_id: string; properties: Record<string, unknown> }): Promise<void> {
  for (const { run, automation } of await liveRuns(engine, message.project_id, message.lead_id)) {
    const version = await getAutomationVersion(engine.deps.db, run.automation_id, run.version, true);
    if (!version) continue;
    if (version.exit.some((rule) => rule.type === 'event' && rule.event === message.event)) {
      await exitRun(engine, run, `goal_event:${message.event}`);
      continue;
    }
    if (run.state !== 'waiting' || run.wait_event !== message.event) continue;
    const step = version.steps.find((s) => s.id === run.step);
    if (step?.type !== 'wait_for_event' || !propertiesMatch(message.properties, step.conditions)) continue;
    if (!automation || automation.status === 'archived') {
      await exitRun(engine, run, 'archived');
      continue;
    }
    const next = await resolveWait(engine, run, version, step, { branch: 'event', eventId: message.event_id });
    if (!next) continue;
    // The event is recorded either way; a paused automation holds the run at the branch it took.
    if (automation.status === 'active') await drive(engine, next, version);
    else await holdRun(engine.deps.db, run.automation_id, next.id, next.seq);
  }
}

/** Leads that left a segment: runs of automations with that exit rule end. */
export async function segmentLeft(engine: Engine, message: { project_id: string; lead_ids: string[]; segment_id: string }): Promise<void> {
  for (const leadId of message.lead_ids) {
    for (const { run } of await liveRuns(engine, message.project_id, leadId)) {
      const version = await getAutomationVersion(engine.deps.db, run.automation_id, run.version, true);
      if (version?.exit.some((rule) => rule.type === 'segment_left' && rule.segment_id === message.segment_id)) await exitRun(engine, run, `segment_left:${message.segment_id}`);
    }
  }
}
