import * as z from '../zod';
import { parseRequest } from '../validate';
import { audienceFilterSchema, filterOf, type AudienceFilter } from './audience-filter';
import { isObject } from './lead-input';

/** A segment's name: a non-blank string of at most 200 characters (stored trimmed). */
const nameSchema = z.string({ error: 'name is required' }).check(
  z.refine((v) => v.trim() !== '', { message: 'name is required', abort: true }),
  z.maxLength(200, 'name must be at most 200 characters'),
);
const DESCRIPTION = 'description must be a string of at most 1000 characters';
/** A description; null clears it. */
const descriptionSchema = z.nullish(z.string({ error: DESCRIPTION }).check(z.maxLength(1000, DESCRIPTION)));

/** `POST /v1/segments`: `name` (required), `description`; with `filter`, a dynamic segment. */
export const segmentCreateBodySchema = z.object({ name: nameSchema, description: descriptionSchema, filter: z.optional(audienceFilterSchema) }, { error: 'name is required' });

const AT_LEAST_ONE = 'At least one of name, description is required';
const whenObject = { when: ({ value }: { value: unknown }) => isObject(value) };
/** `PATCH /v1/segments/:id`: `name` and `description`; a segment's type and filter are fixed at creation. */
// Loose: a `filter` given must reach the check that refuses it.
export const segmentUpdateBodySchema = z
  .looseObject({ name: z.optional(nameSchema), description: descriptionSchema }, { error: AT_LEAST_ONE })
  .check(
    z.refine((b: Record<string, unknown>) => b.name !== undefined || b.description !== undefined, { message: AT_LEAST_ONE, ...whenObject }),
    z.refine((b: Record<string, unknown>) => b.filter === undefined, { message: 'filter cannot be changed; create a new segment', ...whenObject }),
  );

/** POST /v1/segments: the name (trimmed), the description, and the filter of a dynamic segment. */
export function parseSegmentCreate(body: unknown): { name: string; description: string | null; filter?: AudienceFilter } {
  const b = parseRequest(segmentCreateBodySchema, body);
  return { name: b.name.trim(), description: b.description ?? null, ...(b.filter ? { filter: filterOf(b.filter) } : {}) };
}

/** PATCH /v1/segments/:id: the fields given (an absent one is undefined, a null description clears it). */
export function parseSegmentUpdate(body: unknown): { name?: string; description?: string | null } {
  const b = parseRequest(segmentUpdateBodySchema, body);
  return { name: b.name?.trim(), description: b.description };
}
