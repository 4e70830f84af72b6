import { badRequest } from '../errors';
import { isEmail, normalizeEmail } from '../mail/addresses';
import { checkStorable, isObject, parseEmail } from './lead-input';

/** Events per bulk call (part 8). */
export const BULK_EVENT_LIMIT = 1000;
/** Longest event name: it is part of an index key. */
export const MAX_EVENT_NAME = 200;
/** Largest `properties` object (serialized). */
export const MAX_PROPERTIES_BYTES = 16 * 1024;

/** A custom event as stored (part 2). */
export interface CustomEvent {
  id: string;
  project_id: string;
  email: string;
  event: string;
  properties: Record<string, unknown>;
  timestamp: string;
  recipient_id: string;
  created_at: string;
}

/** A validated event of a request, before its lead is known. */
export interface CustomEventInput {
  email: string;
  event: string;
  properties: Record<string, unknown>;
  /** ISO 8601 (UTC); absent: now. */
  timestamp?: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 timestamp, as UTC ISO; `field` names it in the 400. */
export function parseTimestamp(value: unknown, field: string): string {
  if (typeof value !== 'string' || !ISO.test(value) || Number.isNaN(Date.parse(value))) throw badRequest(`${field} must be an ISO 8601 timestamp`);
  const date = new Date(value);
  if (date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999) throw badRequest(`${field} must be an ISO 8601 timestamp`);
  return date.toISOString();
}

/** One event (`email`, `event`, `properties`, `timestamp`); `at` prefixes field names (`events[2].`). */
export function parseEventInput(value: unknown, at = ''): CustomEventInput {
  if (!isObject(value)) throw badRequest(at ? `${at.slice(0, -1)} must be an object` : 'Request body must be a JSON object');
  const email = parseEmail(value.email, `${at}email`);
  if (value.event === undefined || value.event === null || value.event === '') throw badRequest(`${at}event is required`);
  if (typeof value.event !== 'string' || value.event.trim() === '') throw badRequest(`${at}event must be a non-empty string`);
  if (value.event.length > MAX_EVENT_NAME) throw badRequest(`${at}event must be at most ${MAX_EVENT_NAME} characters`);
  const properties = value.properties ?? {};
  if (!isObject(properties)) throw badRequest(`${at}properties must be an object`);
  // The depth and number checks first: serializing a value nested thousands deep would overflow the stack.
  checkStorable(properties, `${at}properties`);
  if (Buffer.byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES) throw badRequest(`${at}properties is larger than ${MAX_PROPERTIES_BYTES / 1024} KB`);
  return { email, event: value.event.trim(), properties, ...(value.timestamp !== undefined && value.timestamp !== null ? { timestamp: parseTimestamp(value.timestamp, `${at}timestamp`) } : {}) };
}

/** POST /v1/events/bulk: `events`, 1 to 1,000, each checked; the first fault names its index and nothing is recorded. */
export function parseBulkEvents(body: unknown): CustomEventInput[] {
  if (!isObject(body) || body.events === undefined) throw badRequest('events is required');
  if (!Array.isArray(body.events)) throw badRequest('events must be an array');
  if (body.events.length === 0) throw badRequest('events must not be empty');
  if (body.events.length > BULK_EVENT_LIMIT) throw badRequest(`events accepts at most ${BULK_EVENT_LIMIT} items (got ${body.events.length})`);
  return body.events.map((e, i) => parseEventInput(e, `events[${i}].`));
}

/** GET /v1/events: `email`, `event`, `since` and `until` (an empty value reads as absent). */
export function parseEventListQuery(query: Readonly<Record<string, string | undefined>>): { email?: string; event?: string; since?: string; until?: string } {
  const email = query.email !== undefined && query.email !== '' ? normalizeEmail(query.email) : undefined;
  if (email !== undefined && !isEmail(email)) throw badRequest('email is not a valid email address');
  const event = query.event !== undefined && query.event !== '' ? query.event.trim() : undefined;
  if (event !== undefined && event.length > 200) throw badRequest('event must be at most 200 characters');
  const since = query.since ? parseTimestamp(query.since, 'since') : undefined;
  const until = query.until ? parseTimestamp(query.until, 'until') : undefined;
  if (since && until && since > until) throw badRequest('since must not be after until');
  return { email, event, since, until };
}

/** The API form of a custom event. */
export function presentEvent(e: CustomEvent) {
  return { id: e.id, email: e.email, event: e.event, properties: e.properties, timestamp: e.timestamp, recipient_id: e.recipient_id, created_at: e.created_at };
}
