import { badRequest } from '../errors';
import { parseAudienceFilter, type AudienceFilter } from './audience-filter';
import { isObject } from './lead-input';

function parseName(value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('name is required');
  if (value.length > 200) throw badRequest('name must be at most 200 characters');
  return value.trim();
}

function parseDescription(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value as undefined | null;
  if (typeof value !== 'string' || value.length > 1000) throw badRequest('description must be a string of at most 1000 characters');
  return value;
}

/** POST /v1/segments: `name` (required), `description`, and `filter` for a dynamic segment. */
export function parseSegmentCreate(body: unknown): { name: string; description: string | null; filter?: AudienceFilter } {
  if (!isObject(body)) throw badRequest('name is required');
  const name = parseName(body.name, true)!;
  const description = parseDescription(body.description) ?? null;
  const filter = body.filter !== undefined ? parseAudienceFilter(body.filter) : undefined;
  return { name, description, ...(filter ? { filter } : {}) };
}

/** PATCH /v1/segments/:id: `name` and `description`; the filter is fixed at creation. */
export function parseSegmentUpdate(body: unknown): { name?: string; description?: string | null } {
  if (!isObject(body) || (body.name === undefined && body.description === undefined)) throw badRequest('At least one of name, description is required');
  if (body.filter !== undefined) throw badRequest('filter cannot be changed; create a new segment');
  return { name: parseName(body.name, false), description: parseDescription(body.description) };
}
