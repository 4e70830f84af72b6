import * as z from '../../platform/core/zod';
import { isEmail, normalizeEmail } from '../../platform/mail/addresses';
import { cursorQuerySchema, pageQuerySchema } from '../../platform/http/pagination';
import { parseRequest } from '../../platform/core/validate';
import { emailFieldSchema, storableObjectSchema } from './lead-input';

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

/** True for an ISO 8601 timestamp between the years 1970 and 9999. */
function isTimestamp(value: string): boolean {
  if (!ISO.test(value) || Number.isNaN(Date.parse(value))) return false;
  const year = new Date(value).getUTCFullYear();
  return year >= 1970 && year <= 9999;
}

/** An ISO 8601 timestamp (`{path} must be an ISO 8601 timestamp` otherwise). */
const timestampSchema = z
  .string({ error: '{path} must be an ISO 8601 timestamp' })
  .check(z.superRefine((v, ctx) => void (isTimestamp(v) || ctx.issues.push({ code: 'custom', input: v, message: '{path} must be an ISO 8601 timestamp' }))));
const utc = (value: string) => new Date(value).toISOString();

/** An ISO 8601 timestamp, as UTC ISO; `field` names it in the 400. */
export function parseTimestamp(value: unknown, field: string): string {
  return utc(parseRequest(z.object({ [field]: timestampSchema }), { [field]: value })[field]);
}

/** An event name: required, a non-empty string, at most MAX_EVENT_NAME characters. */
const eventNameSchema = z
  .string({ error: (issue) => (issue.input == null ? '{path} is required' : '{path} must be a non-empty string') })
  .check(
    z.superRefine((v, ctx) => {
      const problem = v === '' ? 'is required' : v.trim() === '' ? 'must be a non-empty string' : v.length > MAX_EVENT_NAME ? `must be at most ${MAX_EVENT_NAME} characters` : undefined;
      if (problem) ctx.issues.push({ code: 'custom', input: v, message: `{path} ${problem}` });
    }),
  );

/** The fields of one event, in the order they are checked. */
const eventShape = {
  email: emailFieldSchema,
  event: eventNameSchema,
  properties: z.nullish(storableObjectSchema(MAX_PROPERTIES_BYTES)),
  timestamp: z.nullish(timestampSchema),
};

/** `POST /v1/events`: one event. */
export const eventBodySchema = z.object(eventShape, { error: 'Request body must be a JSON object' });
/** One event of `POST /v1/events/bulk`. */
const eventItemSchema = z.object(eventShape, { error: '{path} must be an object' });

/** `POST /v1/events/bulk`: `events`, 1 to BULK_EVENT_LIMIT, the count checked before the items. */
export const bulkEventsBodySchema = z.object(
  {
    events: z.array(eventItemSchema, { error: (issue) => (issue.input === undefined ? 'events is required' : 'events must be an array') }).check(
      z.minLength(1, 'events must not be empty'),
      z.maxLength(BULK_EVENT_LIMIT, { error: (issue) => `events accepts at most ${BULK_EVENT_LIMIT} items (got ${(issue.input as unknown[]).length})` }),
    ),
  },
  { error: 'events is required' },
);

type EventFields = z.output<typeof eventBodySchema>;
/** A validated event as a CustomEventInput (`properties` as sent: the request already refused the keys a record could not copy). */
export function toEventInput(fields: EventFields): CustomEventInput {
  return {
    email: normalizeEmail(fields.email),
    event: fields.event.trim(),
    properties: fields.properties ?? {},
    ...(fields.timestamp != null ? { timestamp: utc(fields.timestamp) } : {}),
  };
}

/** POST /v1/events: one event (`email`, `event`, `properties`, `timestamp`). */
export function parseEventInput(value: unknown): CustomEventInput {
  return toEventInput(parseRequest(eventBodySchema, value));
}

/** A validated POST /v1/events/bulk body as its events, in order. */
export const toBulkEvents = (body: z.output<typeof bulkEventsBodySchema>): CustomEventInput[] => body.events.map(toEventInput);

/** POST /v1/events/bulk: `events`, 1 to 1,000, each checked; the first fault names its index and nothing is recorded. */
export function parseBulkEvents(body: unknown): CustomEventInput[] {
  return toBulkEvents(parseRequest(bulkEventsBodySchema, body));
}

/** A query filter whose empty value reads as absent: `valid` is asked only of a non-empty one. */
const queryValue = (valid: (value: string) => boolean, message: string) => z.optional(z.string().check(z.refine((v) => v === '' || valid(v), message)));
const TIMESTAMP = (name: string) => `${name} must be an ISO 8601 timestamp`;

/** The filters of `GET /v1/events`: `email`, `event`, `since` and `until` (inclusive). */
const eventFilters = {
  email: queryValue((v) => isEmail(normalizeEmail(v)), 'email is not a valid email address'),
  event: queryValue((v) => v.trim().length <= MAX_EVENT_NAME, `event must be at most ${MAX_EVENT_NAME} characters`),
  since: queryValue(isTimestamp, TIMESTAMP('since')),
  until: queryValue(isTimestamp, TIMESTAMP('until')),
};
// Compared once both are valid: a malformed one is named first.
const sinceNotAfterUntil = z.refine<{ since?: string; until?: string }>((q) => !q.since || !q.until || utc(q.since) <= utc(q.until), {
  message: 'since must not be after until',
  when: ({ issues }) => issues.length === 0,
});

/** `GET /v1/events`: `email`, `event`, `since` and `until` (inclusive, since not after until). */
export const eventListQuerySchema = z.object(eventFilters).check(sinceNotAfterUntil);

/** The query of `GET /v1/events` as its route validates it: `page` and `per_page`, `cursor`, then the filters (checked in that order, as the list reads them). */
export const eventListRouteQuerySchema = z.object({ ...pageQuerySchema.shape, ...cursorQuerySchema.shape, ...eventFilters }).check(sinceNotAfterUntil);

/** GET /v1/events: the filters given (an empty value reads as absent). */
export function parseEventListQuery(query: Readonly<Record<string, string | undefined>>): { email?: string; event?: string; since?: string; until?: string } {
  const q = parseRequest(eventListQuerySchema, query);
  return {
    email: q.email ? normalizeEmail(q.email) : undefined,
    event: q.event ? q.event.trim() : undefined,
    since: q.since ? utc(q.since) : undefined,
    until: q.until ? utc(q.until) : undefined,
  };
}

/** The API form of a custom event. */
export function presentEvent(e: CustomEvent) {
  return { id: e.id, email: e.email, event: e.event, properties: e.properties, timestamp: e.timestamp, recipient_id: e.recipient_id, created_at: e.created_at };
}
