/** One step of one run as the engine runs it: the run, its version, the step, and what it reads lazily (the lead, the project). */
import type { Lead } from '../../../audience/leads/lead';
import type { Project } from '../../../platform/projects/project';
import { getProjectCached } from '../../../platform/projects/project-repository';
import type { AutomationVersion } from '../automation';
import type { Step } from '../definition';
import type { AutomationRun, RunStepEntry } from '../run';
import type { Engine } from './engine-context';
import { runLead } from './lead-facts';

/** A step's decision: what its timeline entry records (and so what a redo follows). */
export type Decision = Pick<RunStepEntry, 'outcome' | 'detail' | 'next'>;

/** A step being run: seq `seq` of `run`, the step `step` of its version, at `now`. */
export interface StepContext {
  readonly engine: Engine;
  readonly run: AutomationRun;
  readonly version: AutomationVersion;
  readonly step: Step;
  readonly seq: number;
  readonly now: Date;
  /** The run's lead, read once (undefined once deleted). */
  lead(): Promise<Lead | undefined>;
  /** The run's project, read through the project cache. */
  project(): Promise<Project | undefined>;
}

/** A step context whose lead and project are read on first use. */
export function stepContext(engine: Engine, run: AutomationRun, version: AutomationVersion, step: Step, seq: number, now: Date): StepContext {
  let lead: Promise<Lead | undefined> | undefined;
  let project: Promise<Project | undefined> | undefined;
  return {
    engine,
    run,
    version,
    step,
    seq,
    now,
    lead: () => (lead ??= runLead(engine.deps.db, run.project_id, run.lead_id, run.email)),
    project: () => (project ??= getProjectCached(engine.deps.db, engine.deps.clock, run.project_id)),
  };
}

/** A step that cannot go on: the run fails with `reason` (its end reason) and `error` (what the timeline shows). */
export const failure = (reason: string, error: string): Decision => ({ outcome: 'failed', detail: { reason, error } });
