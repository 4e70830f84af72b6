/** A run as stored (automation-run-repository.ts) and as the API shows it (run-presenter.ts). */
import type { RunState, StepType } from './definition';

/** One lead's pass through one version of an automation. */
export interface AutomationRun {
  id: string;
  project_id: string;
  automation_id: string;
  /** The version it started on, and follows to its end. */
  version: number;
  lead_id: string;
  email: string;
  state: RunState;
  /** The step it is at (being run, or waited in); undefined once it ended after its last step. */
  step?: string;
  /** Steps begun so far; the engine's fence: a job names the seq it runs, and a stale one does nothing. */
  seq: number;
  /** What entered it: the trigger's kind and key (an event id, a segment id, a date, an enrol call). */
  trigger: { type: string; key: string };
  /** The trigger event's properties (templates read them as `event.*`), bounded. */
  context: Record<string, unknown>;
  /** Activity ids of the mails it sent, by step id (conditions on opened or clicked read them). */
  sends: Record<string, string>;
  /** ISO time a wait ends (absent unless waiting for a time or a timeout). */
  due_at?: string;
  /** The event a wait_for_event step listens for. */
  wait_event?: string;
  started_at: string;
  updated_at: string;
  ended_at?: string;
  /** Why it ended: `completed`, `exit_step`, `goal_event:<name>`, `segment_left:<id>`, `archived`, `template_deleted`, ... */
  end_reason?: string;
  error?: string;
}

/** One entry of a run's timeline: the step begun as its seq-th, and what came of it. */
export interface RunStepEntry {
  run_id: string;
  seq: number;
  step_id: string;
  type: StepType;
  at: string;
  /** What happened: `sent` (activity_id), `skipped_suppressed`, `waiting` (until), `branch` (yes/no, event/timeout), `updated`, `posted`, `failed` (error), `exited`. */
  outcome: string;
  detail?: Record<string, unknown>;
  /** The step the run goes to after this one (null: it ends there); absent while it waits, or when it ended here. */
  next?: string | null;
}
