import * as z from '../../platform/core/zod';
import { parseRequest } from '../../platform/core/validate';
import { tagsOf } from './lead';
import { storableProblem } from './lead-input';
import { ownValue } from '../../platform/core/reserved-keys';

/**
 * The audience filter language: what a dynamic segment is, and what a campaign's `recipientFilter`
 * will be. `{ match: 'all' | 'any', conditions: [...] }`, each condition one of:
 * - `{ tags: { any?: [..], all?: [..], none?: [..] } }`
 * - `{ attribute: 'plan', op: 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'in' | 'exists' | 'not_exists', value? }`
 * - `{ event: 'purchase', done: true | false, within_days?: n }` (done or not done in the last n days; ever when absent)
 */
export interface AudienceFilter {
  match: 'all' | 'any';
  conditions: FilterCondition[];
}

export type TagCondition = { tags: { any?: string[]; all?: string[]; none?: string[] } };
export type AttributeCondition = { attribute: string; op: AttributeOp; value?: string | number | boolean | (string | number)[] };
export type EventCondition = { event: string; done: boolean; within_days?: number };
export type FilterCondition = TagCondition | AttributeCondition | EventCondition;

const OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'in', 'exists', 'not_exists'] as const;
export type AttributeOp = (typeof OPS)[number];
export const MAX_CONDITIONS = 20;
const MAX_DAYS = 3650;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.length <= 100 && v.every((s) => typeof s === 'string' && s !== '' && s.length <= 200);
const isScalar = (v: unknown): v is string | number | boolean => (typeof v === 'string' && v.length <= 1000) || (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean';
const isInList = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.length <= 100 && v.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)));

type Ctx = { issues: unknown[] };
/** Adds a problem (`{path}` names the field's place, validate.ts). */
const fail = (ctx: Ctx, input: unknown, message: string) => void ctx.issues.push({ code: 'custom', input, message });

// Messages name their place through `{path}` (`filter.conditions[1].op ...`, validate.ts).
const TAGS = '{path} must be an object with any, all or none';
/** A tag list of a tag condition; its items are checked by the list's own check, so that the problem names the list. */
const tagList = z.optional(z.array(z.unknown(), { error: '{path} must be a non-empty array of tags' }).check(z.refine(isStringList, '{path} must be a non-empty array of tags')));

/** `{ tags: { any?, all?, none? } }`: lists of 1 to 100 tags, at least one list. */
const tagConditionSchema = z.object({
  tags: z
    .object({ any: tagList, all: tagList, none: tagList }, { error: TAGS })
    .check(z.refine((t: Record<string, unknown>) => t.any !== undefined || t.all !== undefined || t.none !== undefined, { message: TAGS, when: ({ value }) => isObject(value) })),
});

/** `{ attribute, op, value? }`: the value's kind follows the op (none for exists, a list for in, no boolean for an order). */
const attributeConditionSchema = z
  .object({
    attribute: z.string({ error: '{path} must be a non-empty string' }).check(z.refine((v) => v !== '' && v.length <= 200, '{path} must be a non-empty string')),
    op: z.enum(OPS, { error: `{path} must be one of ${OPS.join(', ')}` }),
    value: z.optional(z.unknown()),
  })
  .check(
    // The value is read once the attribute and the op are known good.
    z.superRefine(
      (c: { op: AttributeOp; value?: unknown }, ctx) => {
        if (c.op === 'exists' || c.op === 'not_exists') return;
        if (c.op === 'in' && !isInList(c.value)) return fail(ctx, c, '{path}.value must be a non-empty array of strings or numbers for op "in"');
        if (c.op !== 'in' && !isScalar(c.value)) return fail(ctx, c, '{path}.value must be a string, number or boolean');
        if (['gt', 'gte', 'lt', 'lte'].includes(c.op) && typeof c.value === 'boolean') return fail(ctx, c, `{path}.value must be a number or string for op "${c.op}"`);
        // The filter is stored with the segment: a number DynamoDB cannot hold would fail that write.
        const range = storableProblem(c.value);
        if (range) fail(ctx, c, `{path}.value ${range}`);
      },
      { when: ({ issues }) => issues.length === 0 },
    ),
  );

const DAYS = `{path} must be an integer from 1 to ${MAX_DAYS}`;
/** `{ event, done, within_days? }`: done or not done, ever or in the last 1 to 3,650 days. */
const eventConditionSchema = z.object({
  event: z.string({ error: '{path} must be a non-empty string' }).check(z.refine((v) => v.trim() !== '' && v.length <= 200, '{path} must be a non-empty string')),
  done: z.boolean({ error: '{path} must be true or false' }),
  within_days: z.optional(z.number({ error: DAYS }).check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= MAX_DAYS, DAYS))),
});

/**
 * One condition: its kind is the first of `tags`, `attribute`, `event` it holds, and it is checked
 * as that kind only (the other keys are ignored).
 */
const conditionSchema = z.record(z.string(), z.unknown(), { error: '{path} must be an object' }).check(
  z.superRefine((c: Record<string, unknown>, ctx) => {
    const kind = c.tags !== undefined ? tagConditionSchema : c.attribute !== undefined ? attributeConditionSchema : c.event !== undefined ? eventConditionSchema : undefined;
    if (!kind) return fail(ctx, c, '{path} must have tags, attribute or event');
    const result = kind.safeParse(c);
    // The kind's problems keep their place below the condition (the parents prefix theirs).
    if (!result.success) for (const issue of result.error.issues) ctx.issues.push({ code: 'custom', input: c, message: issue.message, path: [...issue.path] });
  }),
);
z.globalRegistry.add(conditionSchema, {
  description: 'One of `{ tags: { any?, all?, none? } }`, `{ attribute, op, value? }` (op: eq, neq, gt, gte, lt, lte, contains, in, exists, not_exists), `{ event, done, within_days? }`',
});

/** An audience filter: `match` (all, the default, or any) over 1 to MAX_CONDITIONS conditions. */
export const audienceFilterSchema = z.object(
  {
    match: z.nullish(z.enum(['all', 'any'], { error: '{path} must be "all" or "any"' })),
    conditions: z
      .array(conditionSchema, { error: '{path} must be a non-empty array' })
      .check(z.minLength(1, '{path} must be a non-empty array'), z.maxLength(MAX_CONDITIONS, `{path} accepts at most ${MAX_CONDITIONS} conditions`)),
  },
  { error: '{path} must be an object' },
);

/** A validated filter in its stored form. */
export function filterOf(value: z.output<typeof audienceFilterSchema>): AudienceFilter {
  return { match: value.match ?? 'all', conditions: value.conditions.map(conditionOf) };
}

/** A validated condition in its stored form (the keys of its kind only). */
function conditionOf(c: Record<string, unknown>): FilterCondition {
  if (c.tags !== undefined) {
    const { any, all, none } = c.tags as TagCondition['tags'];
    return { tags: { ...(any !== undefined ? { any } : {}), ...(all !== undefined ? { all } : {}), ...(none !== undefined ? { none } : {}) } };
  }
  if (c.attribute !== undefined) {
    const { attribute, op, value } = c as AttributeCondition;
    return op === 'exists' || op === 'not_exists' ? { attribute, op } : { attribute, op, value };
  }
  const { event, done, within_days: days } = c as EventCondition;
  return { event, done, ...(days !== undefined ? { within_days: days } : {}) };
}

/** Checks a filter and returns it in its stored form; every fault is a 400 naming the path (`filter.conditions[1].op ...`). */
export function parseAudienceFilter(value: unknown, field = 'filter'): AudienceFilter {
  return filterOf(parseRequest(z.object({ [field]: audienceFilterSchema }), { [field]: value })[field]);
}

/** The event conditions of a filter: each is answered once per evaluation by the set of emails that did the event in its period. */
export const eventConditions = (filter: AudienceFilter): EventCondition[] => filter.conditions.filter((c): c is EventCondition => 'event' in c);

/** The start of an event condition's period (ISO), or undefined for "ever". */
export function eventSince(condition: EventCondition, now: Date): string | undefined {
  return condition.within_days === undefined ? undefined : new Date(now.getTime() - condition.within_days * 86_400_000).toISOString();
}

/** Who did each event condition's event in its period, keyed by the condition. */
export type EventAnswers = ReadonlyMap<EventCondition, ReadonlySet<string>>;

/** Whether a lead matches the filter, given who did the filter's events. */
export function matchesFilter(filter: AudienceFilter, lead: { email: string; data: Record<string, unknown> }, events: EventAnswers): boolean {
  const test = (c: FilterCondition) => matchesCondition(c, lead, events);
  return filter.match === 'all' ? filter.conditions.every(test) : filter.conditions.some(test);
}

function matchesCondition(c: FilterCondition, lead: { email: string; data: Record<string, unknown> }, events: EventAnswers): boolean {
  if ('tags' in c) {
    const tags = new Set(tagsOf(lead.data));
    return (!c.tags.any || c.tags.any.some((t) => tags.has(t))) && (!c.tags.all || c.tags.all.every((t) => tags.has(t))) && (!c.tags.none || !c.tags.none.some((t) => tags.has(t)));
  }
  if ('event' in c) return (events.get(c)?.has(lead.email) ?? false) === c.done;
  return compareAttribute(ownValue(lead.data, c.attribute), c.op, c.value);
}

/**
 * Compares an attribute: numbers as numbers, anything else as strings; a missing attribute matches
 * only not_exists and neq. Automations compare their trigger events' properties with it too.
 */
export function compareAttribute(actual: unknown, op: AttributeOp, expected: AttributeCondition['value']): boolean {
  const present = actual !== undefined && actual !== null;
  if (op === 'exists') return present;
  if (op === 'not_exists') return !present;
  if (op === 'neq') return !present || !same(actual, expected);
  if (!present) return false;
  if (op === 'eq') return same(actual, expected);
  if (op === 'in') return (expected as (string | number)[]).some((e) => same(actual, e));
  if (op === 'contains') {
    if (Array.isArray(actual)) return actual.some((a) => same(a, expected));
    return String(actual).toLowerCase().includes(String(expected).toLowerCase());
  }
  const [a, b] = typeof expected === 'number' ? [Number(actual), expected] : [String(actual), String(expected)];
  if (typeof a === 'number' && Number.isNaN(a)) return false;
  return op === 'gt' ? a > b : op === 'gte' ? a >= b : op === 'lt' ? a < b : a <= b;
}

function same(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number') return Number(actual) === expected;
  if (typeof expected === 'boolean') return actual === expected || String(actual) === String(expected);
  return String(actual) === String(expected);
}
