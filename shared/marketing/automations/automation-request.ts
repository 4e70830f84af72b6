import * as z from '../../platform/core/zod';
import { audienceFilterSchema, filterOf } from '../../audience/leads/audience-filter';
import { MAX_EVENT_NAME } from '../../audience/leads/custom-event';
import { MAX_TAG_LENGTH, MAX_TAGS, storableProblem } from '../../audience/leads/lead-input';
import {
  AUTOMATION_LIMITS,
  type AutomationDefinition,
  type Condition,
  type Duration,
  type EntryRules,
  type ExitRule,
  type PropertyCondition,
  type Step,
  type Trigger,
} from './definition';

/**
 * The body of `POST /v1/automations` and `PUT /v1/automations/:id` (docs/automations.md): a name and
 * a definition. Every message names its field by its place (`steps[2].duration.days ...`, through
 * validate.ts's `{path}`); the graph's own rules (references, cycles, resources) are checked at
 * activation (automation-validation.ts), so a draft can be saved half built.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STEP_ID = new RegExp(`^[A-Za-z0-9_-]{1,${AUTOMATION_LIMITS.stepIdLength}}$`);
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_TEXT = 200;
const MAX_SUBJECT = 998;
const MAX_SEGMENT_IDS = 100;
const MAX_ATTRIBUTES = 100;
/** Days a date trigger may start before or after its date. */
export const MAX_DATE_OFFSET_DAYS = 365;
/** Longest name of a webhook target (`live`, `dev` or an environment's key). */
const MAX_WEBHOOK_ID = 64;
const OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists', 'not_exists'] as const;
const STEP_TYPES = ['send_email', 'wait', 'wait_until', 'wait_for_event', 'condition', 'update_lead', 'webhook', 'exit'] as const;
const TRIGGER_TYPES = ['event', 'lead_created', 'tag_added', 'segment_entered', 'date', 'manual'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
type Ctx = { issues: unknown[] };
const fail = (ctx: Ctx, input: unknown, message: string, path: PropertyKey[] = []) => void ctx.issues.push({ code: 'custom', input, message, path });

/**
 * An object of these fields; a field it does not know is refused (a misspelt `on_timout` would
 * otherwise vanish and end the run there).
 */
function strict<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `{path} has an unknown field: ${(issue as { keys: string[] }).keys[0]}` : '{path} must be an object'),
  });
}

/** A trimmed-non-empty string of at most `max` characters. */
const text = (max: number, description?: string) =>
  z.string({ error: `{path} must be a non-empty string of at most ${max} characters` }).check(
    z.refine((v) => v.trim() !== '' && v.length <= max, `{path} must be a non-empty string of at most ${max} characters`),
    z.meta({ minLength: 1, maxLength: max, ...(description ? { description } : {}) }),
  );

const uuid = () => z.string({ error: '{path} must be a uuid' }).check(z.regex(UUID, '{path} must be a uuid'), z.meta({ format: 'uuid' }));
const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).check(z.refine((n) => Number.isInteger(n) && n >= min && n <= max, message), z.meta({ type: 'integer', minimum: min, maximum: max }));
const stepId = () =>
  z.string({ error: `{path} must be 1 to ${AUTOMATION_LIMITS.stepIdLength} letters, digits, _ or -` }).check(
    z.regex(STEP_ID, `{path} must be 1 to ${AUTOMATION_LIMITS.stepIdLength} letters, digits, _ or -`),
  );
/** Where the run goes next: a step id, or null (or absent) to end the run there. */
const nextRef = () => z.nullish(stepId());
const timeOfDay = () => z.string({ error: '{path} must be a time of day HH:MM (00:00 to 23:59)' }).check(z.regex(TIME_OF_DAY, '{path} must be a time of day HH:MM (00:00 to 23:59)'), z.meta({ examples: ['09:00'] }));

/** A comparison's value, by its op: none for exists, a list for in, a scalar otherwise (no boolean for an order). */
function valueProblem(c: { op: string; value?: unknown }): string | undefined {
  if (c.op === 'exists' || c.op === 'not_exists') return undefined;
  const scalar = (v: unknown) => (typeof v === 'string' && v.length <= 1000) || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';
  if (c.op === 'in') {
    const list = c.value;
    if (!Array.isArray(list) || list.length === 0 || list.length > 100 || !list.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) {
      return '{path}.value must be a non-empty array of strings or numbers for op "in"';
    }
  } else if (!scalar(c.value)) return '{path}.value must be a string, number or boolean';
  else if (['gt', 'gte', 'lt', 'lte'].includes(c.op) && typeof c.value === 'boolean') return `{path}.value must be a number or string for op "${c.op}"`;
  const range = storableProblem(c.value);
  return range ? `{path}.value ${range}` : undefined;
}

/** `{ property, op, value? }` on the trigger's (or awaited) event's properties. */
const propertyConditionSchema = strict({
  property: text(MAX_TEXT),
  op: z.enum(OPS, { error: `{path} must be one of ${OPS.join(', ')}` }),
  value: z.optional(z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))])),
}).check(
  z.superRefine(
    (c, ctx) => {
      const problem = valueProblem(c);
      if (problem) fail(ctx, c, problem);
    },
    { when: ({ issues }) => issues.length === 0 },
  ),
);

const conditionsSchema = () =>
  z.optional(
    z.array(propertyConditionSchema, { error: '{path} must be an array' }).check(
      z.maxLength(AUTOMATION_LIMITS.propertyConditions, `{path} accepts at most ${AUTOMATION_LIMITS.propertyConditions} conditions`),
    ),
  );

const eventName = () => text(MAX_EVENT_NAME, 'A custom event name (4.10)');

const DURATION = `{path} must be {days, hours, minutes}: whole numbers, at least one above 0, ${AUTOMATION_LIMITS.maxDurationDays} days in all at most`;
const durationPart = () => z.optional(z.number({ error: '{path} must be a whole number, 0 or more' }).check(z.refine((n) => Number.isInteger(n) && n >= 0, '{path} must be a whole number, 0 or more'), z.meta({ type: 'integer', minimum: 0 })));
/** `{days?, hours?, minutes?}`: at least one part above 0, in all at most AUTOMATION_LIMITS.maxDurationDays days. */
const durationSchema = () =>
  strict({ days: durationPart(), hours: durationPart(), minutes: durationPart() }).check(
    z.superRefine(
      (d: Duration, ctx) => {
        const minutes = durationMinutes(d);
        if (minutes <= 0 || minutes > AUTOMATION_LIMITS.maxDurationDays * 1440) fail(ctx, d, DURATION);
      },
      { when: ({ issues }) => issues.length === 0 },
    ),
  );

/** A duration in minutes. */
export const durationMinutes = (d: Duration): number => (d.days ?? 0) * 1440 + (d.hours ?? 0) * 60 + (d.minutes ?? 0);

/** A discriminated union on `type`; an object without a known type is named by its `type`. */
function byType<T extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(types: readonly string[], options: T) {
  return z.discriminatedUnion('type', options, {
    error: (issue) => (isObject(issue.input) || issue.input === undefined ? `{path} must be one of ${types.join(', ')}` : '{path} must be an object with a type'),
  });
}

export const triggerSchema = byType(TRIGGER_TYPES, [
  strict({ type: z.literal('event'), event: eventName(), conditions: conditionsSchema() }),
  strict({ type: z.literal('lead_created') }),
  strict({ type: z.literal('tag_added'), tag: text(MAX_TAG_LENGTH) }),
  strict({ type: z.literal('segment_entered'), segment_id: uuid() }),
  strict({
    type: z.literal('date'),
    attribute: text(MAX_TEXT, "A key of the lead's data holding a date (YYYY-MM-DD or an ISO instant)"),
    offset_days: z.optional(wholeNumber(-MAX_DATE_OFFSET_DAYS, MAX_DATE_OFFSET_DAYS, `{path} must be a whole number from -${MAX_DATE_OFFSET_DAYS} to ${MAX_DATE_OFFSET_DAYS}`)),
    at: timeOfDay(),
    yearly: z.optional(z.boolean({ error: '{path} must be true or false' })),
  }),
  strict({ type: z.literal('manual') }),
]).check(z.meta({ description: 'What starts a run: a custom `event`, `lead_created`, `tag_added`, `segment_entered`, a `date` in the lead\'s data, or `manual` enrolment' }));

export const entrySchema = strict({
  filter: z.nullish(audienceFilterSchema),
  reentry: z.optional(z.enum(['once', 'after_days', 'every_time'], { error: '{path} must be one of once, after_days, every_time' })),
  reentry_days: z.optional(wholeNumber(1, AUTOMATION_LIMITS.maxDurationDays, `{path} must be a whole number from 1 to ${AUTOMATION_LIMITS.maxDurationDays}`)),
})
  .check(
    z.superRefine(
      (e, ctx) => {
        if (e.reentry === 'after_days' && e.reentry_days === undefined) fail(ctx, e, '{path}.reentry_days is required with reentry "after_days"');
        if (e.reentry !== 'after_days' && e.reentry_days !== undefined) fail(ctx, e, '{path}.reentry_days needs reentry "after_days"');
      },
      { when: ({ issues }) => issues.length === 0 },
    ),
  )
  .check(z.meta({ description: 'Who may enter (an audience filter, null for everyone the trigger names) and whether again: `once` (the default), `after_days` (with `reentry_days`) or `every_time`' }));

export const exitRuleSchema = byType(['event', 'segment_left'], [strict({ type: z.literal('event'), event: eventName() }), strict({ type: z.literal('segment_left'), segment_id: uuid() })]);

const stringList = (max: number, itemMax: number) =>
  z.optional(
    z.array(z.string(), { error: `{path} must be an array of non-empty strings of at most ${itemMax} characters` }).check(
      z.refine((l) => l.every((s) => s.trim() !== '' && s.length <= itemMax), `{path} must be an array of non-empty strings of at most ${itemMax} characters`),
      z.maxLength(max, `{path} accepts at most ${max} items`),
    ),
  );
const uuidList = () => z.optional(z.array(uuid(), { error: '{path} must be an array of segment ids (uuids)' }).check(z.maxLength(MAX_SEGMENT_IDS, `{path} accepts at most ${MAX_SEGMENT_IDS} ids`)));

const base = { id: stepId(), name: z.optional(text(MAX_TEXT)) };

const conditionKinds = { filter: strict({ filter: audienceFilterSchema }), opened: strict({ opened: stepId() }), clicked: strict({ clicked: stepId() }) } as const;

/** The condition's one kind (`{filter}`, `{opened}` or `{clicked}`), checked as that kind only, so its problem names its field. */
const conditionFieldSchema = z.record(z.string(), z.unknown(), { error: '{path} must be an object: {filter}, {opened} or {clicked}' }).check(
  z.superRefine((c: Record<string, unknown>, ctx) => {
    const kinds = (['filter', 'opened', 'clicked'] as const).filter((k) => c[k] !== undefined);
    if (kinds.length !== 1) return fail(ctx, c, '{path} must have exactly one of filter, opened, clicked');
    const result = conditionKinds[kinds[0]].safeParse(c);
    if (!result.success) for (const issue of result.error.issues) ctx.issues.push({ code: 'custom', input: c, message: issue.message, path: [...issue.path] });
  }),
);
z.globalRegistry.add(conditionFieldSchema, { description: '`{filter}` (the audience filter language, on the lead), or `{opened: <step id>}` / `{clicked: <step id>}` naming an earlier send_email step of the run' });

export const stepSchema = byType(STEP_TYPES, [
  strict({
    ...base,
    type: z.literal('send_email'),
    template_id: uuid(),
    sender_profile_id: uuid(),
    subject: z.optional(
      z.string({ error: `{path} must be a string of at most ${MAX_SUBJECT} characters` }).check(
        z.refine((s) => s.trim() !== '' && s.length <= MAX_SUBJECT, `{path} must be a non-empty string of at most ${MAX_SUBJECT} characters`),
        z.refine((s) => !/[\r\n]/.test(s), '{path} may not contain line breaks'),
      ),
    ),
    email_type: z.optional(z.enum(['marketing', 'transactional'], { error: '{path} must be "marketing" or "transactional"' })),
    next: nextRef(),
  }),
  strict({ ...base, type: z.literal('wait'), duration: durationSchema(), next: nextRef() }),
  strict({
    ...base,
    type: z.literal('wait_until'),
    time: timeOfDay(),
    timezone_attribute: z.optional(text(MAX_TEXT)),
    weekdays: z.optional(
      z.array(z.number(), { error: '{path} must be an array of weekdays, 1 (Monday) to 7 (Sunday)' }).check(
        z.refine((l) => l.length >= 1 && l.length <= 7 && l.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) && new Set(l).size === l.length, '{path} must be an array of distinct weekdays, 1 (Monday) to 7 (Sunday)'),
      ),
    ),
    next: nextRef(),
  }),
  strict({ ...base, type: z.literal('wait_for_event'), event: eventName(), conditions: conditionsSchema(), timeout: durationSchema(), on_event: nextRef(), on_timeout: nextRef() }),
  strict({ ...base, type: z.literal('condition'), condition: conditionFieldSchema, yes: nextRef(), no: nextRef() }),
  strict({
    ...base,
    type: z.literal('update_lead'),
    add_tags: stringList(MAX_TAGS, MAX_TAG_LENGTH),
    remove_tags: stringList(MAX_TAGS, MAX_TAG_LENGTH),
    set_attributes: z.optional(
      z.record(z.string(), z.unknown(), { error: '{path} must be an object' }).check(
        z.refine((r) => Object.keys(r).length <= MAX_ATTRIBUTES, `{path} accepts at most ${MAX_ATTRIBUTES} attributes`),
        z.superRefine((r, ctx) => {
          for (const [key, value] of Object.entries(r)) {
            const problem = key.trim() === '' || key.length > MAX_TEXT ? `has an empty or over-long attribute name` : storableProblem(value);
            if (problem) return fail(ctx, r, `{path}.${key} ${problem}`);
          }
        }),
      ),
    ),
    add_segment_ids: uuidList(),
    remove_segment_ids: uuidList(),
    next: nextRef(),
  }).check(
    z.superRefine(
      (s, ctx) => {
        const lists = [s.add_tags, s.remove_tags, s.add_segment_ids, s.remove_segment_ids];
        if (lists.every((l) => !l || l.length === 0) && Object.keys(s.set_attributes ?? {}).length === 0) {
          fail(ctx, s, '{path} must change something: add_tags, remove_tags, set_attributes, add_segment_ids or remove_segment_ids');
        }
      },
      { when: ({ issues }) => issues.length === 0 },
    ),
  ),
  strict({
    ...base,
    type: z.literal('webhook'),
    webhook_id: z.string({ error: `{path} must be live, dev or an environment's name` }).check(
      z.refine((v) => v.trim() !== '' && v.length <= MAX_WEBHOOK_ID, `{path} must be live, dev or an environment's name`),
      z.meta({ description: "The project's webhook to post to: `live` (webhook_url), `dev` (webhook_url_dev) or the key of an `inbound_webhook_environments` entry" }),
    ),
    next: nextRef(),
  }),
  strict({ ...base, type: z.literal('exit') }),
]);

/** The fields of a definition, as the create and update bodies take them. */
const definitionShape = {
  trigger: triggerSchema,
  entry: z.optional(entrySchema),
  exit: z.optional(
    z.array(exitRuleSchema, { error: '{path} must be an array' }).check(z.maxLength(AUTOMATION_LIMITS.exitRules, `{path} accepts at most ${AUTOMATION_LIMITS.exitRules} rules`)),
  ),
  steps: z
    .array(stepSchema, { error: '{path} must be a non-empty array' })
    .check(z.minLength(1, '{path} must be a non-empty array'), z.maxLength(AUTOMATION_LIMITS.steps, `{path} accepts at most ${AUTOMATION_LIMITS.steps} steps`)),
};

/** The body of `POST /v1/automations` and `PUT /v1/automations/:id` (a full replace): a name and a definition. */
export const automationBodySchema = z
  .object(
    {
      name: text(AUTOMATION_LIMITS.nameLength),
      ...definitionShape,
    },
    { error: 'The body must be an object {name, trigger, entry?, exit?, steps}' },
  )
  .check(z.meta({ id: 'AutomationRequest' }));

/** A body its schema accepted. */
export type AutomationBody = z.output<typeof automationBodySchema>;

/** What create and update write: a trimmed name and the definition with its defaults. */
export interface AutomationRequest {
  name: string;
  definition: AutomationDefinition;
}

/** The service's input from an accepted body: the name trimmed, defaults applied, filters in their stored form. */
export function toAutomationRequest(body: AutomationBody): AutomationRequest {
  return {
    name: body.name.trim(),
    definition: {
      trigger: triggerOf(body.trigger),
      entry: entryOf(body.entry),
      exit: (body.exit ?? []).map((rule): ExitRule => (rule.type === 'event' ? { type: 'event', event: rule.event } : { type: 'segment_left', segment_id: rule.segment_id.toLowerCase() })),
      steps: body.steps.map(stepOf),
    },
  };
}

type Parsed<S extends z.ZodMiniType> = z.output<S>;

const conditionsOf = (list: PropertyCondition[] | undefined) => (list && list.length > 0 ? { conditions: list.map(propertyConditionOf) } : {});
const propertyConditionOf = (c: PropertyCondition): PropertyCondition => (c.op === 'exists' || c.op === 'not_exists' ? { property: c.property, op: c.op } : { property: c.property, op: c.op, value: c.value });

function triggerOf(t: Parsed<typeof triggerSchema>): Trigger {
  switch (t.type) {
    case 'event':
      return { type: 'event', event: t.event, ...conditionsOf(t.conditions) };
    case 'tag_added':
      return { type: 'tag_added', tag: t.tag.trim() };
    case 'segment_entered':
      return { type: 'segment_entered', segment_id: t.segment_id.toLowerCase() };
    case 'date':
      return { type: 'date', attribute: t.attribute, offset_days: t.offset_days ?? 0, at: t.at, yearly: t.yearly ?? false };
    default:
      return { type: t.type };
  }
}

function entryOf(e: Parsed<typeof entrySchema> | undefined): EntryRules {
  const reentry = e?.reentry ?? 'once';
  return { filter: e?.filter ? filterOf(e.filter) : null, reentry, ...(reentry === 'after_days' ? { reentry_days: e?.reentry_days } : {}) };
}

/** Drops absent optional fields, so a stored step holds only what was given. */
const given = <T extends Record<string, unknown>>(fields: T): Partial<T> => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;

function stepOf(s: Parsed<typeof stepSchema>): Step {
  const head = { id: s.id, ...given({ name: s.name }) };
  switch (s.type) {
    case 'send_email':
      return { ...head, type: 'send_email', template_id: s.template_id.toLowerCase(), sender_profile_id: s.sender_profile_id.toLowerCase(), ...given({ subject: s.subject }), email_type: s.email_type ?? 'marketing', next: s.next ?? null };
    case 'wait':
      return { ...head, type: 'wait', duration: given(s.duration), next: s.next ?? null };
    case 'wait_until':
      return { ...head, type: 'wait_until', time: s.time, ...given({ timezone_attribute: s.timezone_attribute, weekdays: s.weekdays ? [...s.weekdays].sort() : undefined }), next: s.next ?? null };
    case 'wait_for_event':
      return { ...head, type: 'wait_for_event', event: s.event, ...conditionsOf(s.conditions), timeout: given(s.timeout), on_event: s.on_event ?? null, on_timeout: s.on_timeout ?? null };
    case 'condition':
      return { ...head, type: 'condition', condition: conditionOf(s.condition), yes: s.yes ?? null, no: s.no ?? null };
    case 'update_lead':
      return {
        ...head,
        type: 'update_lead',
        ...given({
          add_tags: s.add_tags?.map((t) => t.trim()),
          remove_tags: s.remove_tags?.map((t) => t.trim()),
          set_attributes: s.set_attributes,
          add_segment_ids: s.add_segment_ids?.map((id) => id.toLowerCase()),
          remove_segment_ids: s.remove_segment_ids?.map((id) => id.toLowerCase()),
        }),
        next: s.next ?? null,
      };
    case 'webhook':
      return { ...head, type: 'webhook', webhook_id: s.webhook_id.trim(), next: s.next ?? null };
    case 'exit':
      return { ...head, type: 'exit' };
  }
}

/** A condition as the schema checked it (conditionFieldSchema holds it as a record). */
function conditionOf(c: Record<string, unknown>): Condition {
  if (c.filter !== undefined) return { filter: filterOf(c.filter as z.output<typeof audienceFilterSchema>) };
  if (c.opened !== undefined) return { opened: c.opened as string };
  return { clicked: c.clicked as string };
}
