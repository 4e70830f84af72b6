import { badRequest } from '../errors';
import type { Template } from './template';

const OPTIONAL_FIELDS = ['subject', 'description', 'preheader'] as const;
const UPDATABLE_FIELDS = ['name', 'html', ...OPTIONAL_FIELDS] as const;

/** The fields of a template a request sets. */
export type TemplateFields = Pick<Template, 'name' | 'html' | 'subject' | 'description' | 'preheader'>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function optionalText(body: Record<string, unknown>, field: string): string | null | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}

/** Validates a `POST /v1/templates` body: `name` and `html` are required, the rest are text or null. */
export function parseCreateTemplate(body: unknown): TemplateFields {
  if (!isObject(body) || !nonEmptyString(body.name) || !nonEmptyString(body.html)) throw badRequest('Missing required fields: name, html');
  const optional = Object.fromEntries(OPTIONAL_FIELDS.map((f) => [f, optionalText(body, f) ?? null])) as Record<(typeof OPTIONAL_FIELDS)[number], string | null>;
  return { name: body.name, html: body.html, ...optional };
}

/** Validates a `PUT /v1/templates/:id` body: the fields it changes (at least one). */
export function parseUpdateTemplate(body: unknown): Partial<TemplateFields> {
  if (!isObject(body) || !UPDATABLE_FIELDS.some((f) => body[f] !== undefined)) {
    throw badRequest(`At least one of ${UPDATABLE_FIELDS.join(', ')} is required`);
  }
  const changes: Partial<TemplateFields> = {};
  for (const field of ['name', 'html'] as const) {
    if (body[field] === undefined) continue;
    if (!nonEmptyString(body[field])) throw badRequest(`${field} must be a non-empty string`);
    changes[field] = body[field] as string;
  }
  for (const field of OPTIONAL_FIELDS) {
    const value = optionalText(body, field);
    if (value !== undefined) changes[field] = value;
  }
  return changes;
}
