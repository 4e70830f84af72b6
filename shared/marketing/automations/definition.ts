/**
 * What an automation is, as the API takes it and the engine runs it (docs/automations.md): one
 * trigger, entry rules, exit rules and a graph of steps. The request schema (automation-request.ts)
 * parses into these types; a version item stores one `AutomationDefinition` unchanged, and a run
 * follows the version it started on.
 */
import type { AudienceFilter } from '../../audience/leads/audience-filter';

/** An automation's status (part 3 style): only an active one takes new entries. */
export type AutomationStatus = 'draft' | 'active' | 'paused' | 'archived';

/** A run's state: `active` while a step runs or is queued, `waiting` in a wait, then one of the three ends. */
export type RunState = 'active' | 'waiting' | 'completed' | 'exited' | 'failed';

/** A comparison on one property of the trigger's event (the ops of the audience filter's attribute conditions). */
export interface PropertyCondition {
  property: string;
  op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'in' | 'exists' | 'not_exists';
  value?: string | number | boolean | (string | number)[];
}

/** What starts a run for a lead. */
export type Trigger =
  /** A custom event (4.10) by name, every condition on its properties true. */
  | { type: 'event'; event: string; conditions?: PropertyCondition[] }
  | { type: 'lead_created' }
  | { type: 'tag_added'; tag: string }
  /** Entering a segment, static (membership added) or dynamic (an evaluation finds the lead new in it). */
  | { type: 'segment_entered'; segment_id: string }
  /**
   * A date in the lead's data: the run starts `offset_days` from the date (negative: before) at
   * `at` (HH:MM) in the lead's time zone (its `timezone` attribute, else the project's); `yearly`
   * repeats on the date's anniversary (a birthday).
   */
  | { type: 'date'; attribute: string; offset_days: number; at: string; yearly: boolean }
  /** Only `POST /v1/automations/:id/enroll`. */
  | { type: 'manual' };

export type TriggerType = Trigger['type'];

/** Whether a lead may enter again: never (`once`), `after_days` since its last entry, or `every_time`. */
export type Reentry = 'once' | 'after_days' | 'every_time';

/** Who may enter: the audience filter (null: everyone the trigger names) and the re-entry rule. */
export interface EntryRules {
  filter: AudienceFilter | null;
  reentry: Reentry;
  /** With `reentry: 'after_days'`: days since the last entry. */
  reentry_days?: number;
}

/** What ends a run at once, wherever it is. */
export type ExitRule = { type: 'event'; event: string } | { type: 'segment_left'; segment_id: string };

/** A duration; at least one part, in all at most 365 days. */
export interface Duration {
  days?: number;
  hours?: number;
  minutes?: number;
}

/** Fields every step has. `next: null` (or absent) ends the run as completed after the step. */
interface StepBase {
  /** Unique in the automation: letters, digits, `_` and `-`, 1 to 64 characters. Named in errors, stats and timelines. */
  id: string;
  /** Shown in the console. */
  name?: string;
}

/** Sends a template through the one mail pipeline; variables are the lead's data, the trigger's event properties (`event.*`) and the run (`run.*`). */
export interface SendEmailStep extends StepBase {
  type: 'send_email';
  template_id: string;
  sender_profile_id: string;
  /** Overrides the template's subject (Handlebars). */
  subject?: string;
  /** Marketing mail honours `marketing_status` and carries the unsubscribe footer; transactional mail only suppression. */
  email_type: 'marketing' | 'transactional';
  next?: string | null;
}

export interface WaitStep extends StepBase {
  type: 'wait';
  duration: Duration;
  next?: string | null;
}

/** Waits until the next `time` (HH:MM) in the lead's zone (its `timezone_attribute`, default `timezone`; else the project's), on one of `weekdays` (1 Monday .. 7 Sunday) when given. */
export interface WaitUntilStep extends StepBase {
  type: 'wait_until';
  time: string;
  timezone_attribute?: string;
  weekdays?: number[];
  next?: string | null;
}

/** Waits for the lead's event (its properties matching `conditions`) for at most `timeout`; each outcome has its branch. */
export interface WaitForEventStep extends StepBase {
  type: 'wait_for_event';
  event: string;
  conditions?: PropertyCondition[];
  timeout: Duration;
  on_event?: string | null;
  on_timeout?: string | null;
}

/** A yes/no branch: the audience filter on the lead, or whether the lead opened or clicked the mail an earlier step of this run sent. */
export type Condition = { filter: AudienceFilter } | { opened: string } | { clicked: string };

export interface ConditionStep extends StepBase {
  type: 'condition';
  condition: Condition;
  yes?: string | null;
  no?: string | null;
}

export interface UpdateLeadStep extends StepBase {
  type: 'update_lead';
  add_tags?: string[];
  remove_tags?: string[];
  /** Attributes set in the lead's data (null removes one). */
  set_attributes?: Record<string, unknown>;
  add_segment_ids?: string[];
  remove_segment_ids?: string[];
  next?: string | null;
}

/** Posts `automation.webhook` to one of the project's webhooks (its URL, secret, SSRF guard, retries and log). */
export interface WebhookStep extends StepBase {
  type: 'webhook';
  webhook_id: string;
  next?: string | null;
}

/** Ends the run (state `exited`, reason `exit_step`). */
export interface ExitStep extends StepBase {
  type: 'exit';
}

export type Step = SendEmailStep | WaitStep | WaitUntilStep | WaitForEventStep | ConditionStep | UpdateLeadStep | WebhookStep | ExitStep;
export type StepType = Step['type'];

/** One version of an automation: what the API's create and update take besides `name`. The first step is `steps[0]`. */
export interface AutomationDefinition {
  trigger: Trigger;
  entry: EntryRules;
  exit: ExitRule[];
  steps: Step[];
}

/** Limits of a definition. */
export const AUTOMATION_LIMITS = {
  steps: 100,
  exitRules: 10,
  propertyConditions: 20,
  maxDurationDays: 365,
  stepIdLength: 64,
  nameLength: 200,
  enrollPerCall: 1000,
  /** Bytes of event properties (the run's context) a run keeps. */
  contextBytes: 16 * 1024,
} as const;

/** The step ids a step can go to next, in order (null: the run ends there). */
export function nextStepsOf(step: Step): (string | null)[] {
  switch (step.type) {
    case 'exit':
      return [];
    case 'condition':
      return [step.yes ?? null, step.no ?? null];
    case 'wait_for_event':
      return [step.on_event ?? null, step.on_timeout ?? null];
    default:
      return [step.next ?? null];
  }
}

/** Whether a step makes the run wait (a cycle must pass one, or it could spin without end). */
export const isWaitStep = (step: Step): boolean => step.type === 'wait' || step.type === 'wait_until' || step.type === 'wait_for_event';
