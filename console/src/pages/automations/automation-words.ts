/** An automation's definition in words: its trigger, entry and exit rules, and what each step does and where it goes. */
import type { Schemas } from '../../lib/api';

export type Automation = Schemas['Automation'];
export type Trigger = Automation['trigger'];
export type Step = Automation['steps'][number];
type PropertyCondition = NonNullable<Extract<Trigger, { type: 'event' }>['conditions']>[number];
type Duration = Extract<Step, { type: 'wait' }>['duration'];

/** The triggers' types as the list names them. */
export const TRIGGER_TYPE_WORDS: Record<Trigger['type'], string> = {
  event: 'Event',
  lead_created: 'Lead created',
  tag_added: 'Tag added',
  segment_entered: 'Segment entered',
  date: 'Date',
  manual: 'Manual enrolment',
};

/** The steps' types as the flow names them. */
export const STEP_TYPE_WORDS: Record<Step['type'], string> = {
  send_email: 'Send a mail',
  wait: 'Wait',
  wait_until: 'Wait until a time',
  wait_for_event: 'Wait for an event',
  condition: 'Condition',
  update_lead: 'Update the lead',
  webhook: 'Call a webhook',
  exit: 'Exit',
};

const OPS: Record<PropertyCondition['op'], string> = {
  eq: 'is',
  neq: 'is not',
  gt: 'is above',
  gte: 'is at least',
  lt: 'is below',
  lte: 'is at most',
  contains: 'contains',
  in: 'is one of',
  exists: 'is set',
  not_exists: 'is not set',
};

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A list in words: "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A duration in words: "2 days", "1 day and 6 hours". */
export function durationWords(d: Duration): string {
  const parts: string[] = [];
  if (d.days) parts.push(plural(d.days, 'day'));
  if (d.hours) parts.push(plural(d.hours, 'hour'));
  if (d.minutes) parts.push(plural(d.minutes, 'minute'));
  return parts.length ? listWords(parts) : 'no time';
}

/** Property conditions in words: `where plan is "pro" and seats is above 5`. */
export function conditionsWords(conditions: readonly PropertyCondition[] | undefined): string {
  if (!conditions?.length) return '';
  const each = conditions.map((c) => (c.value === undefined || c.op === 'exists' || c.op === 'not_exists' ? `${c.property} ${OPS[c.op]}` : `${c.property} ${OPS[c.op]} ${JSON.stringify(c.value)}`));
  return ` where ${listWords(each)}`;
}

/** What starts a run: "When event signed_up happens", "3 days before renewal_date at 09:00". */
export function triggerWords(trigger: Trigger): string {
  switch (trigger.type) {
    case 'event':
      return `When event ${trigger.event} happens${conditionsWords(trigger.conditions)}`;
    case 'lead_created':
      return 'When a lead is created';
    case 'tag_added':
      return `When tag ${trigger.tag} is added to a lead`;
    case 'segment_entered':
      return `When a lead enters segment ${trigger.segment_id}`;
    case 'date': {
      const offset = trigger.offset_days ?? 0;
      const when = offset === 0 ? `On ${trigger.attribute}` : `${plural(Math.abs(offset), 'day')} ${offset < 0 ? 'before' : 'after'} ${trigger.attribute}`;
      return `${when} at ${trigger.at} in the lead's time zone${trigger.yearly ? ', every year' : ''}`;
    }
    case 'manual':
      return 'Only when leads are enrolled through the API (POST /v1/automations/{id}/enroll)';
  }
}

/** Who may enter: everyone the trigger names, or those an audience filter keeps. */
export function entryFilterWords(entry: Automation['entry']): string {
  return entry.filter ? `Leads matching the filter ${JSON.stringify(entry.filter)}` : 'Everyone the trigger names';
}

/** Whether a lead may enter again: "Re-entry: once". */
export function reentryWords(entry: Automation['entry']): string {
  switch (entry.reentry ?? 'once') {
    case 'once':
      return 'Re-entry: once';
    case 'after_days':
      return `Re-entry: again after ${plural(entry.reentry_days ?? 0, 'day')}`;
    case 'every_time':
      return 'Re-entry: every time';
  }
}

/** One exit rule: "Ends when event purchased happens". */
export function exitWords(rule: Automation['exit'][number]): string {
  return rule.type === 'event' ? `Ends when event ${rule.event} happens` : `Ends when the lead leaves segment ${rule.segment_id}`;
}

/** Names of what a definition refers to by id (templates, senders), where the console could read them. */
export interface KnownNames {
  readonly templates?: ReadonlyMap<string, string>;
  readonly senders?: ReadonlyMap<string, string>;
}

// A known name stands for its id (the JSON editor shows the ids); an unknown one keeps the id, which activation checks.
const named = (kind: string, id: string, names: ReadonlyMap<string, string> | undefined) => {
  const name = names?.get(id);
  return name ? `${kind} “${name}”` : `${kind} ${id}`;
};

/** "the tag new", "the tags a and b" (tags, segments). */
const some = (kind: string, items: readonly string[]) => `the ${kind}${items.length === 1 ? '' : 's'} ${listWords(items)}`;

/** What a step does, in words (its branches are told apart: see `branchesOf`). */
export function stepWords(step: Step, names: KnownNames = {}): string {
  switch (step.type) {
    case 'send_email': {
      const subject = step.subject ? ` with the subject “${step.subject}”` : '';
      return `Sends ${named('template', step.template_id, names.templates)} from ${named('sender', step.sender_profile_id, names.senders)}${subject}, as ${step.email_type ?? 'marketing'} mail`;
    }
    case 'wait':
      return `Waits ${durationWords(step.duration)}`;
    case 'wait_until': {
      const days = step.weekdays?.length ? ` on ${listWords(step.weekdays.map((d) => WEEKDAYS[d - 1] ?? String(d)))}` : '';
      return `Waits until ${step.time}${days} in the lead's time zone (its ${step.timezone_attribute ?? 'timezone'} attribute, else the project's)`;
    }
    case 'wait_for_event':
      return `Waits up to ${durationWords(step.timeout)} for event ${step.event}${conditionsWords(step.conditions)}`;
    case 'condition': {
      const c = step.condition as { opened?: unknown; clicked?: unknown; filter?: unknown };
      if (typeof c.opened === 'string') return `Did the lead open the mail of step ${c.opened}?`;
      if (typeof c.clicked === 'string') return `Did the lead click in the mail of step ${c.clicked}?`;
      return `Does the lead match the filter ${JSON.stringify(c.filter ?? c)}?`;
    }
    case 'update_lead': {
      const parts: string[] = [];
      if (step.add_tags?.length) parts.push(`adds ${some('tag', step.add_tags)}`);
      if (step.remove_tags?.length) parts.push(`removes ${some('tag', step.remove_tags)}`);
      const attributes = Object.entries(step.set_attributes ?? {});
      if (attributes.length) parts.push(`sets ${listWords(attributes.map(([k, v]) => (v === null ? `removes ${k}` : `${k} to ${JSON.stringify(v)}`)))}`);
      if (step.add_segment_ids?.length) parts.push(`adds the lead to ${some('segment', step.add_segment_ids)}`);
      if (step.remove_segment_ids?.length) parts.push(`removes the lead from ${some('segment', step.remove_segment_ids)}`);
      const text = parts.length ? listWords(parts) : 'changes nothing';
      return text.charAt(0).toUpperCase() + text.slice(1);
    }
    case 'webhook':
      return `Posts automation.webhook to the project's webhook ${step.webhook_id}`;
    case 'exit':
      return 'Ends the run here (exited)';
  }
}

/** One way out of a step: its label and the step it goes to (null: the run ends there). */
export interface Branch {
  readonly label: string;
  readonly to: string | null;
}

/** The ways out of a step, as the engine takes them. */
export function branchesOf(step: Step): Branch[] {
  switch (step.type) {
    case 'exit':
      return [];
    case 'condition':
      return [
        { label: 'Yes', to: step.yes ?? null },
        { label: 'No', to: step.no ?? null },
      ];
    case 'wait_for_event':
      return [
        { label: 'On event', to: step.on_event ?? null },
        { label: 'On timeout', to: step.on_timeout ?? null },
      ];
    default:
      return [{ label: 'Next', to: step.next ?? null }];
  }
}
