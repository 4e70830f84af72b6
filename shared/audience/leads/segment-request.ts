import * as z from '../../platform/core/zod';
import { parseRequest } from '../../platform/core/validate';
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

/** What a segment is created with: the name (trimmed), the description, and the filter of a dynamic segment. */
export interface SegmentCreateInput {
  name: string;
  description: string | null;
  filter?: AudienceFilter;
}

/** What a segment is renamed with: the fields given (an absent one is undefined, a null description clears it). */
export interface SegmentUpdateInput {
  name?: string;
  description?: string | null;
}

/** POST /v1/segments: a validated body as the service takes it. */
export function toSegmentCreate(b: z.output<typeof segmentCreateBodySchema>): SegmentCreateInput {
  return { name: b.name.trim(), description: b.description ?? null, ...(b.filter ? { filter: filterOf(b.filter) } : {}) };
}

/** PATCH /v1/segments/:id: a validated body as the service takes it. */
export function toSegmentUpdate(b: z.output<typeof segmentUpdateBodySchema>): SegmentUpdateInput {
  return { name: b.name?.trim(), description: b.description };
}

/** POST /v1/segments: checks a raw body (the 400 of its first problem) and maps it. */
export function parseSegmentCreate(body: unknown): SegmentCreateInput {
  return toSegmentCreate(parseRequest(segmentCreateBodySchema, body));
}

/** PATCH /v1/segments/:id: checks a raw body (the 400 of its first problem) and maps it. */
export function parseSegmentUpdate(body: unknown): SegmentUpdateInput {
  return toSegmentUpdate(parseRequest(segmentUpdateBodySchema, body));
}
