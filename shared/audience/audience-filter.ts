import { badRequest } from '../errors';
import { tagsOf } from './lead';

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

/** Checks a filter and returns it in its stored form; every fault is a 400 naming the path (`filter.conditions[1].op ...`). */
export function parseAudienceFilter(value: unknown, field = 'filter'): AudienceFilter {
  if (!isObject(value)) throw badRequest(`${field} must be an object`);
  const match = value.match ?? 'all';
  if (match !== 'all' && match !== 'any') throw badRequest(`${field}.match must be "all" or "any"`);
  if (!Array.isArray(value.conditions) || value.conditions.length === 0) throw badRequest(`${field}.conditions must be a non-empty array`);
  if (value.conditions.length > MAX_CONDITIONS) throw badRequest(`${field}.conditions accepts at most ${MAX_CONDITIONS} conditions`);
  return { match, conditions: value.conditions.map((c, i) => parseCondition(c, `${field}.conditions[${i}]`)) };
}

function parseCondition(c: unknown, at: string): FilterCondition {
  if (!isObject(c)) throw badRequest(`${at} must be an object`);
  if (c.tags !== undefined) {
    if (!isObject(c.tags)) throw badRequest(`${at}.tags must be an object with any, all or none`);
    const tags: TagCondition['tags'] = {};
    for (const kind of ['any', 'all', 'none'] as const) {
      const list = c.tags[kind];
      if (list === undefined) continue;
      if (!isStringList(list)) throw badRequest(`${at}.tags.${kind} must be a non-empty array of tags`);
      tags[kind] = list;
    }
    if (Object.keys(tags).length === 0) throw badRequest(`${at}.tags must be an object with any, all or none`);
    return { tags };
  }
  if (c.attribute !== undefined) {
    if (typeof c.attribute !== 'string' || c.attribute === '' || c.attribute.length > 200) throw badRequest(`${at}.attribute must be a non-empty string`);
    if (!OPS.includes(c.op as AttributeOp)) throw badRequest(`${at}.op must be one of ${OPS.join(', ')}`);
    const op = c.op as AttributeOp;
    if (op === 'exists' || op === 'not_exists') return { attribute: c.attribute, op };
    if (op === 'in') {
      if (!Array.isArray(c.value) || c.value.length === 0 || c.value.length > 100 || !c.value.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) {
        throw badRequest(`${at}.value must be a non-empty array of strings or numbers for op "in"`);
      }
      return { attribute: c.attribute, op, value: c.value as (string | number)[] };
    }
    if (!isScalar(c.value)) throw badRequest(`${at}.value must be a string, number or boolean`);
    if (['gt', 'gte', 'lt', 'lte'].includes(op) && typeof c.value === 'boolean') throw badRequest(`${at}.value must be a number or string for op "${op}"`);
    return { attribute: c.attribute, op, value: c.value };
  }
  if (c.event !== undefined) {
    if (typeof c.event !== 'string' || c.event.trim() === '' || c.event.length > 200) throw badRequest(`${at}.event must be a non-empty string`);
    if (typeof c.done !== 'boolean') throw badRequest(`${at}.done must be true or false`);
    const days = c.within_days;
    if (days !== undefined && (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS)) throw badRequest(`${at}.within_days must be an integer from 1 to ${MAX_DAYS}`);
    return { event: c.event, done: c.done, ...(days !== undefined ? { within_days: days } : {}) };
  }
  throw badRequest(`${at} must have tags, attribute or event`);
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
  return compare(lead.data[c.attribute], c.op, c.value);
}

/** Compares an attribute: numbers as numbers, anything else as strings; a missing attribute matches only not_exists and neq. */
function compare(actual: unknown, op: AttributeOp, expected: AttributeCondition['value']): boolean {
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
