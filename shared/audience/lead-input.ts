import { badRequest } from '../errors';
import { isEmail, normalizeEmail } from '../mail/addresses';
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

/** An email field: trimmed, lowercased and format-checked; `field` names it in the 400s. */
export function parseEmail(value: unknown, field: string): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) throw badRequest(`${field} is required`);
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  const email = normalizeEmail(value);
  if (!isEmail(email)) throw badRequest(`${field} is not a valid email address`);
  return email;
}

// DynamoDB's number range, and its nesting limit (32) with room for the item's own levels.
const MAX_NUMBER = 9.9e125;
const MIN_NUMBER = 1e-130;
const MAX_DEPTH = 16;

/** Checks a JSON value can be stored as is (also for custom event properties): numbers in DynamoDB's range, non-empty keys, bounded nesting. */
export function checkStorable(value: unknown, field: string, depth = 0): void {
  if (depth > MAX_DEPTH) throw badRequest(`${field} is nested more than ${MAX_DEPTH} levels deep`);
  if (typeof value === 'number') {
    const abs = Math.abs(value);
    if (!Number.isFinite(value) || abs > MAX_NUMBER || (abs !== 0 && abs < MIN_NUMBER)) throw badRequest(`${field} holds a number out of range`);
  } else if (Array.isArray(value)) {
    value.forEach((v) => checkStorable(v, field, depth + 1));
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '') throw badRequest(`${field} may not have an empty key`);
      checkStorable(v, field, depth + 1);
    }
  }
}

/** A `data` object: an object within the size bound whose `_tags`, if any, is a string array. */
export function parseData(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw badRequest(`${field} must be an object`);
  // The depth check first: serializing a value nested thousands deep would overflow the stack.
  checkStorable(value, field);
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_DATA_BYTES) throw badRequest(`${field} is larger than ${MAX_DATA_BYTES / 1024} KB`);
  if (value[TAGS_KEY] !== undefined) value = { ...value, [TAGS_KEY]: parseTags(value[TAGS_KEY], `${field}.${TAGS_KEY}`) };
  return value as Record<string, unknown>;
}

/** A `segment_ids` array: uuids (lowercased, deduplicated), at most MAX_SEGMENT_IDS. */
export function parseSegmentIds(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.every(isUuid)) throw badRequest(`${field} must be an array of segment ids (uuids)`);
  if (value.length > MAX_SEGMENT_IDS) throw badRequest(`${field} accepts at most ${MAX_SEGMENT_IDS} ids`);
  return [...new Set(value.map((id) => id.toLowerCase()))];
}

/** A `tags` array: non-empty strings (trimmed, deduplicated), at most MAX_TAGS of MAX_TAG_LENGTH characters. */
export function parseTags(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.every((t) => typeof t === 'string' && t.trim() !== '')) throw badRequest(`${field} must be an array of non-empty strings`);
  if (value.length > MAX_TAGS) throw badRequest(`${field} accepts at most ${MAX_TAGS} tags`);
  const tags = [...new Set(value.map((t: string) => t.trim()))];
  if (tags.some((t) => t.length > MAX_TAG_LENGTH)) throw badRequest(`${field} holds a tag longer than ${MAX_TAG_LENGTH} characters`);
  return tags;
}

/** `storeplatform_customer_id`: a string of at most 200 characters, or null. */
function parseCustomerId(value: unknown, field: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length > 200) throw badRequest(`${field} must be a string of at most 200 characters, or null`);
  return value;
}

/** One lead item (`email`, `data`, `segment_ids`, `storeplatform_customer_id`); `at` prefixes field names (`leads[2].`). */
export function parseLeadInput(value: unknown, at = ''): LeadInput {
  if (!isObject(value)) throw badRequest(at ? `${at.slice(0, -1)} must be an object` : 'Request body must be a JSON object');
  const input: LeadInput = { email: parseEmail(value.email, `${at}email`), segmentIds: [] };
  if (value.data !== undefined) input.data = parseData(value.data, `${at}data`);
  if (value.segment_ids !== undefined) input.segmentIds = parseSegmentIds(value.segment_ids, `${at}segment_ids`);
  if (value.storeplatform_customer_id !== undefined) input.storeplatformCustomerId = parseCustomerId(value.storeplatform_customer_id, `${at}storeplatform_customer_id`);
  return input;
}

/**
 * POST /v1/leads: one lead, or `leads` (1 to 1,000 items). Every item is checked before anything is
 * written; a repeated email keeps its last occurrence (in the position of the last).
 */
export function parseUpsertBody(body: unknown): LeadInput[] {
  if (!isObject(body)) throw badRequest('Request body must be a JSON object');
  if (body.leads === undefined) return [parseLeadInput(body)];
  if (!Array.isArray(body.leads)) throw badRequest('leads must be an array');
  if (body.leads.length === 0) throw badRequest('leads must not be empty');
  if (body.leads.length > BULK_LEAD_LIMIT) throw badRequest(`leads accepts at most ${BULK_LEAD_LIMIT} items (got ${body.leads.length})`);
  return dedupeLastWins(body.leads.map((item, i) => parseLeadInput(item, `leads[${i}].`)));
}

/** Keeps the last input of each email, in the order of those last occurrences. */
export function dedupeLastWins(inputs: readonly LeadInput[]): LeadInput[] {
  const last = new Map<string, number>();
  inputs.forEach((input, i) => last.set(input.email, i));
  return inputs.filter((input, i) => last.get(input.email) === i);
}

/** PUT /v1/leads/:id: at least one of `email`, `data` (replaces), `segment_ids` (replaces); `storeplatform_customer_id` too. */
export function parseLeadUpdate(body: unknown): { email?: string; data?: Record<string, unknown>; segmentIds?: string[]; storeplatformCustomerId?: string | null } {
  if (!isObject(body) || (body.email === undefined && body.data === undefined && body.segment_ids === undefined && body.storeplatform_customer_id === undefined)) {
    throw badRequest('At least one of email, data, segment_ids is required');
  }
  return {
    ...(body.email !== undefined ? { email: parseEmail(body.email, 'email') } : {}),
    ...(body.data !== undefined ? { data: parseData(body.data, 'data') } : {}),
    ...(body.segment_ids !== undefined ? { segmentIds: parseSegmentIds(body.segment_ids, 'segment_ids') } : {}),
    ...(body.storeplatform_customer_id !== undefined ? { storeplatformCustomerId: parseCustomerId(body.storeplatform_customer_id, 'storeplatform_customer_id') } : {}),
  };
}

/** POST /v1/leads/:id/segments: `segment_ids`, 1 to MAX_SEGMENT_IDS segment uuids. */
export function parseMembershipBody(body: unknown): string[] {
  if (!isObject(body) || body.segment_ids === undefined) throw badRequest('segment_ids is required');
  const segmentIds = parseSegmentIds(body.segment_ids, 'segment_ids');
  if (segmentIds.length === 0) throw badRequest('segment_ids must not be empty');
  return segmentIds;
}

/** POST and DELETE /v1/leads/:email/tags: `tags`. */
export function parseTagsBody(body: unknown): string[] {
  return parseTags(isObject(body) ? body.tags : undefined, 'tags');
}

/** POST /v1/leads/:email/attributes: a flat object, `_tags` left out. */
export function parseAttributesBody(body: unknown): Record<string, unknown> {
  const attributes = parseData(body, 'Request body');
  if (Object.values(attributes).some((v) => isObject(v))) throw badRequest('Attributes must be a flat object (no nested objects)');
  const { [TAGS_KEY]: _ignored, ...rest } = attributes;
  return rest;
}

/** GET /v1/leads: `search` (trimmed, lowercased) and `segment_id`. */
export function parseLeadListQuery(query: { search?: string; segment_id?: string }): { search?: string; segmentId?: string } {
  const search = query.search?.trim().toLowerCase();
  if (search !== undefined && search.length > 254) throw badRequest('search must be at most 254 characters');
  const segmentId = query.segment_id !== undefined ? uuidParam(query.segment_id, 'segment') : undefined;
  return { ...(search !== undefined ? { search } : {}), ...(segmentId !== undefined ? { segmentId } : {}) };
}
