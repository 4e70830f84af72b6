import { storableProblem, storedValueProblem as storedWithin } from '../../platform/store/storable-value';
import * as z from '../../platform/core/zod';
import { badRequest } from '../../platform/core/errors';
import { isEmail, normalizeEmail } from '../../platform/mail/addresses';
import { parseRequest } from '../../platform/core/validate';
import { TAGS_KEY } from './lead';

/** Leads per bulk upsert (part 8). */
export const BULK_LEAD_LIMIT = 1000;
/** Segments one call may name for a lead: keeps a lead's writes within one transaction. */
export const MAX_SEGMENT_IDS = 25;
/** Tags per call and per lead, and the longest tag. */
export const MAX_TAGS = 100;
export const MAX_TAG_LENGTH = 100;
/** Largest `data` object (serialized): a lead item stays far below DynamoDB's 400 KB. */
export const MAX_DATA_BYTES = 32 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One lead of an upsert, validated: what the API and an import hand to upsertLeads. */
export interface LeadInput {
  email: string;
  /** Shallow-merged into the stored data; absent: unchanged. */
  data?: Record<string, unknown>;
  segmentIds: string[];
  /** Absent: unchanged; null clears it. */
  storeplatformCustomerId?: string | null;
}

/** True for a plain object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** True for a uuid. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** A `:id` path parameter that must be a uuid (lowercased); 400 otherwise. */
export function uuidParam(raw: string | undefined, what: string): string {
  if (!isUuid(raw)) throw badRequest(`Invalid ${what} id: ${String(raw ?? '').slice(0, 100)}`);
  return raw.toLowerCase();
}

type Ctx = { issues: unknown[] };
/** Adds `message` as a value's problem (`{path}` names the field, validate.ts). */
const fail = (ctx: Ctx, value: unknown, message: string) => void ctx.issues.push({ code: 'custom', input: value, message });
/** Runs `problem` over a value and reports what it finds under the field's own name. */
const check = <T>(problem: (value: T) => string | undefined, name = '{path}') =>
  z.superRefine((value: T, ctx) => {
    const found = problem(value);
    if (found) fail(ctx, value, `${name} ${found}`);
  });

/**
 * An email field: absent, null or blank is `{path} is required`, then its type, then its format
 * (checked trimmed and lowercased, as it is stored).
 */
export const emailFieldSchema = z
  .string({ error: (issue) => (issue.input == null ? '{path} is required' : '{path} must be a string') })
  .check(check((v: string) => (v.trim() === '' ? 'is required' : isEmail(normalizeEmail(v)) ? undefined : 'is not a valid email address')));

/** An email field: trimmed, lowercased and format-checked; `field` names it in the 400s. */
export function parseEmail(value: unknown, field: string): string {
  return normalizeEmail(parseRequest(z.object({ [field]: emailFieldSchema }), { [field]: value })[field]);
}

/**
 * Why a JSON value cannot be stored as is (the store's rule, also for custom event properties), and
 * the same within `maxBytes` (a lead's data: MAX_DATA_BYTES).
 */
export { storableProblem };
export const storedValueProblem = (value: unknown, maxBytes = MAX_DATA_BYTES): string | undefined => storedWithin(value, maxBytes);

/** Why a `tags` value is refused: non-empty strings, at most MAX_TAGS of MAX_TAG_LENGTH characters (trimmed). */
function tagsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every((t) => typeof t === 'string' && t.trim() !== '')) return 'must be an array of non-empty strings';
  if (value.length > MAX_TAGS) return `accepts at most ${MAX_TAGS} tags`;
  if (value.some((t: string) => t.trim().length > MAX_TAG_LENGTH)) return `holds a tag longer than ${MAX_TAG_LENGTH} characters`;
  return undefined;
}

/** A JSON object that can be stored (storedValueProblem); `name` names it in the 400s (`{path}`: the field's place). */
export function storableObjectSchema(maxBytes: number, name = '{path}', more?: (value: Record<string, unknown>) => string | undefined) {
  return z.record(z.string(), z.unknown(), { error: `${name} must be an object` }).check(
    z.superRefine((value: Record<string, unknown>, ctx) => {
      const problem = storedValueProblem(value, maxBytes);
      if (problem) return fail(ctx, value, `${name} ${problem}`);
      const other = more?.(value);
      if (other) fail(ctx, value, other.replace('{name}', name));
    }),
  );
}

/** A lead's `data`: storable, within MAX_DATA_BYTES, its `_tags` (if any) a tag list. */
const dataSchema = (name?: string) =>
  storableObjectSchema(MAX_DATA_BYTES, name, (value) => {
    const problem = value[TAGS_KEY] !== undefined ? tagsProblem(value[TAGS_KEY]) : undefined;
    return problem && `{name}.${TAGS_KEY} ${problem}`;
  });

/** A `data` object (`field` names it in the 400s): storable, within the size bound, its `_tags` a tag list. */
export function parseData(value: unknown, field: string): Record<string, unknown> {
  parseRequest(z.object({ [field]: dataSchema() }), { [field]: value });
  return dataOf(value as Record<string, unknown>);
}

/** The items of the lists below are checked by the list's own check (so a problem names the list, as part 7 words it); the document shows their type. */
const uuidItem = z.unknown();
z.globalRegistry.add(uuidItem, { type: 'string', format: 'uuid' });
const tagItem = z.unknown();
z.globalRegistry.add(tagItem, { type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH });

/** `segment_ids`: uuids, at most MAX_SEGMENT_IDS (`nonEmpty`: at least one); absent is `{path} is required` where it is read as required. */
const segmentIdsSchema = (nonEmpty = false) =>
  z
    .array(uuidItem, { error: (issue) => (issue.input === undefined ? '{path} is required' : '{path} must be an array of segment ids (uuids)') })
    .check(
      check((ids: unknown[]) => {
        if (!ids.every(isUuid)) return 'must be an array of segment ids (uuids)';
        if (ids.length > MAX_SEGMENT_IDS) return `accepts at most ${MAX_SEGMENT_IDS} ids`;
        return nonEmpty && ids.length === 0 ? 'must not be empty' : undefined;
      }),
    );

/** A tag list. */
const tagsSchema = z.array(tagItem, { error: '{path} must be an array of non-empty strings' }).check(check(tagsProblem));

const CUSTOMER_ID = '{path} must be a string of at most 200 characters, or null';
/** `storeplatform_customer_id`: a string of at most 200 characters, or null (clears it). */
const customerIdSchema = z.nullable(z.string({ error: CUSTOMER_ID }).check(z.maxLength(200, CUSTOMER_ID)));

/** The fields of one lead, in the order they are checked. */
const leadShape = {
  email: emailFieldSchema,
  data: z.optional(dataSchema()),
  segment_ids: z.optional(segmentIdsSchema()),
  storeplatform_customer_id: z.optional(customerIdSchema),
};
const NOT_AN_OBJECT = 'Request body must be a JSON object';

/** One lead of a bulk upsert or an import row. */
export const leadItemSchema = z.object(leadShape, { error: '{path} must be an object' });
/** One lead of an import (a row read as an object). */
const leadRowSchema = z.object(leadShape, { error: NOT_AN_OBJECT });
/** `POST /v1/leads` with one lead (no `leads`). */
export const leadBodySchema = z.object({ ...leadShape, leads: z.optional(z.never()) }, { error: NOT_AN_OBJECT });

/** `POST /v1/leads` with `leads`: 1 to BULK_LEAD_LIMIT leads, the count checked before the items. */
export const bulkLeadsBodySchema = z.object(
  {
    leads: z.array(leadItemSchema, { error: 'leads must be an array' }).check(
      z.minLength(1, 'leads must not be empty'),
      z.maxLength(BULK_LEAD_LIMIT, { error: (issue) => `leads accepts at most ${BULK_LEAD_LIMIT} items (got ${(issue.input as unknown[]).length})` }),
    ),
  },
  { error: NOT_AN_OBJECT },
);

/**
 * The body of `POST /v1/leads`: one lead, or `leads`. The two forms are told apart by `leads` alone,
 * so that a problem names the form that was meant (a union would answer "Invalid input"); the union
 * after the dispatch is what the document shows.
 */
export const leadUpsertBodySchema = z.pipe(
  z.transform((body: unknown, ctx) => {
    const form = isObject(body) && body.leads !== undefined ? bulkLeadsBodySchema : leadBodySchema;
    const result = form.safeParse(body);
    if (result.success) return body;
    ctx.issues.push(...(result.error.issues as unknown as typeof ctx.issues));
    return z.NEVER;
  }),
  z.union([leadBodySchema, bulkLeadsBodySchema]),
);
/** A `POST /v1/leads` body, validated. */
export type LeadUpsertBody = z.output<typeof leadUpsertBodySchema>;

type LeadFields = { email: string; data?: Record<string, unknown>; segment_ids?: unknown[]; storeplatform_customer_id?: string | null };

/** `data` as stored: its `_tags` trimmed and deduplicated. */
function dataOf(value: Record<string, unknown>): Record<string, unknown> {
  const tags = value[TAGS_KEY];
  return Array.isArray(tags) ? { ...value, [TAGS_KEY]: uniqueTrimmed(tags as string[]) } : value;
}
const uniqueTrimmed = (tags: readonly string[]) => [...new Set(tags.map((t) => t.trim()))];
const uniqueIds = (ids: readonly unknown[]) => [...new Set((ids as string[]).map((id) => id.toLowerCase()))];

/** A validated lead's fields as a LeadInput (`data` as sent: the request already refused the keys a record could not copy, `__proto__` among them). */
function toLeadInput(fields: LeadFields): LeadInput {
  const input: LeadInput = { email: normalizeEmail(fields.email), segmentIds: fields.segment_ids ? uniqueIds(fields.segment_ids) : [] };
  if (fields.data !== undefined) input.data = dataOf(fields.data);
  if (fields.storeplatform_customer_id !== undefined) input.storeplatformCustomerId = fields.storeplatform_customer_id;
  return input;
}

/** One lead item (`email`, `data`, `segment_ids`, `storeplatform_customer_id`), as an import row gives it. */
export function parseLeadInput(value: unknown): LeadInput {
  return toLeadInput(parseRequest(leadRowSchema, value));
}

/**
 * POST /v1/leads: one lead, or `leads` (1 to 1,000 items). Every item is checked before anything is
 * written; a repeated email keeps its last occurrence (in the position of the last).
 */
export function parseUpsertBody(body: unknown): LeadInput[] {
  return toUpsertInputs(parseRequest(leadUpsertBodySchema, body));
}

/** A validated POST /v1/leads body as the leads to upsert: one, or the bulk's deduplicated (last wins). */
export function toUpsertInputs(body: LeadUpsertBody): LeadInput[] {
  return body.leads !== undefined ? dedupeLastWins(body.leads.map(toLeadInput)) : [toLeadInput(body)];
}

/**
 * How a 400 about a lead's merged data names that lead's `data` in a POST /v1/leads body (already
 * parsed): `data`, or `leads[i].data` of the item its upsert comes from (an email's last).
 */
export function upsertDataFields(body: LeadUpsertBody): (email: string) => string {
  if (body.leads === undefined) return () => 'data';
  const last = new Map<string, number>();
  body.leads.forEach((item, i) => void last.set(normalizeEmail(item.email), i));
  return (email) => `leads[${last.get(email)}].data`;
}

/** Keeps the last input of each email, in the order of those last occurrences. */
export function dedupeLastWins(inputs: readonly LeadInput[]): LeadInput[] {
  const last = new Map<string, number>();
  inputs.forEach((input, i) => last.set(input.email, i));
  return inputs.filter((input, i) => last.get(input.email) === i);
}

const AT_LEAST_ONE = 'At least one of email, data, segment_ids is required';
const updateFields = ['email', 'data', 'segment_ids', 'storeplatform_customer_id'] as const;

/** `PUT /v1/leads/:id`: at least one of `email`, `data` (replaces), `segment_ids` (replaces); `storeplatform_customer_id` too. */
export const leadUpdateBodySchema = z
  .object(
    { email: z.optional(emailFieldSchema), data: z.optional(dataSchema()), segment_ids: z.optional(segmentIdsSchema()), storeplatform_customer_id: z.optional(customerIdSchema) },
    { error: AT_LEAST_ONE },
  )
  .check(z.refine((b: Record<string, unknown>) => updateFields.some((f) => b[f] !== undefined), { message: AT_LEAST_ONE, when: ({ value }) => isObject(value) }));

/** What a PUT /v1/leads/:id changes: the fields given. */
export interface LeadUpdate {
  email?: string;
  data?: Record<string, unknown>;
  segmentIds?: string[];
  storeplatformCustomerId?: string | null;
}

/** PUT /v1/leads/:id: the fields given, validated. */
export function parseLeadUpdate(body: unknown): LeadUpdate {
  return toLeadUpdate(parseRequest(leadUpdateBodySchema, body));
}

/** A validated PUT /v1/leads/:id body as the update (email normalised, tags and ids deduplicated). */
export function toLeadUpdate(b: z.output<typeof leadUpdateBodySchema>): LeadUpdate {
  return {
    ...(b.email !== undefined ? { email: normalizeEmail(b.email) } : {}),
    ...(b.data !== undefined ? { data: dataOf(b.data) } : {}),
    ...(b.segment_ids !== undefined ? { segmentIds: uniqueIds(b.segment_ids) } : {}),
    ...(b.storeplatform_customer_id !== undefined ? { storeplatformCustomerId: b.storeplatform_customer_id } : {}),
  };
}

/** `POST /v1/leads/:id/segments`: `segment_ids`, 1 to MAX_SEGMENT_IDS segment uuids. */
export const membershipBodySchema = z.object({ segment_ids: segmentIdsSchema(true) }, { error: 'segment_ids is required' });

/** POST /v1/leads/:id/segments: the segment ids (lowercased, deduplicated). */
export function parseMembershipBody(body: unknown): string[] {
  return toSegmentIds(parseRequest(membershipBodySchema, body));
}

/** A validated membership body's segment ids (lowercased, deduplicated). */
export const toSegmentIds = (body: z.output<typeof membershipBodySchema>): string[] => uniqueIds(body.segment_ids);

/** `POST` and `DELETE /v1/leads/:email/tags`: `tags`. */
export const tagsBodySchema = z.object({ tags: tagsSchema }, { error: 'tags must be an array of non-empty strings' });

/** POST and DELETE /v1/leads/:email/tags: the tags (trimmed, deduplicated). */
export function parseTagsBody(body: unknown): string[] {
  return toTags(parseRequest(tagsBodySchema, body));
}

/** A validated tags body's tags (trimmed, deduplicated). */
export const toTags = (body: z.output<typeof tagsBodySchema>): string[] => uniqueTrimmed(body.tags as string[]);

/** `POST /v1/leads/:email/attributes`: a flat, storable object (`_tags` is ignored, but checked as tags). */
export const attributesBodySchema = storableObjectSchema(MAX_DATA_BYTES, 'Request body', (value) => {
  const problem = value[TAGS_KEY] !== undefined ? tagsProblem(value[TAGS_KEY]) : undefined;
  if (problem) return `{name}.${TAGS_KEY} ${problem}`;
  return Object.values(value).some((v) => isObject(v)) ? 'Attributes must be a flat object (no nested objects)' : undefined;
});

/** POST /v1/leads/:email/attributes: the attributes to merge, `_tags` left out. */
export function parseAttributesBody(body: unknown): Record<string, unknown> {
  return toAttributes(parseRequest(attributesBodySchema, body));
}

/** A validated attributes body without `_tags` (checked, never merged: tags have their own routes). */
export function toAttributes(body: z.output<typeof attributesBodySchema>): Record<string, unknown> {
  const { [TAGS_KEY]: _ignored, ...rest } = body;
  return rest;
}

/** `GET /v1/leads`: `search` (at most 254 characters once trimmed), `segment_id` (a uuid), and a search's `cursor`. */
export const leadListQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.meta({ description: 'A search\'s previous `pagination.next_cursor`: reads on from there' }))),
  search: z.optional(z.string().check(z.refine((v) => v.trim().toLowerCase().length <= 254, 'search must be at most 254 characters'))),
  segment_id: z.optional(z.string().check(z.superRefine((v, ctx) => void (isUuid(v) || fail(ctx, v, `Invalid segment id: ${(v as string).slice(0, 100)}`))))),
});

/** GET /v1/leads: `search` (trimmed, lowercased) and `segment_id` (lowercased). */
export function parseLeadListQuery(query: { search?: string; segment_id?: string }): { search?: string; segmentId?: string } {
  const { search, segment_id: segmentId } = parseRequest(leadListQuerySchema, query);
  return { ...(search !== undefined ? { search: search.trim().toLowerCase() } : {}), ...(segmentId !== undefined ? { segmentId: segmentId.toLowerCase() } : {}) };
}
