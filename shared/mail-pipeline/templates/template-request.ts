import * as z from '../../platform/core/zod';
import { parseRequest } from '../../platform/core/validate';
import type { Template } from './template';

const OPTIONAL_FIELDS = ['subject', 'description', 'preheader'] as const;
const UPDATABLE_FIELDS = ['name', 'html', ...OPTIONAL_FIELDS] as const;
const MISSING = 'Missing required fields: name, html';
const NOTHING_TO_UPDATE = `At least one of ${UPDATABLE_FIELDS.join(', ')} is required`;

/** The fields of a template a request sets. */
export type TemplateFields = Pick<Template, 'name' | 'html' | 'subject' | 'description' | 'preheader'>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';
/** The body's own checks run even when a field failed: they come first. */
const bodyChecks = { when: ({ value }: { value: unknown }) => isObject(value) };

/** Optional text: a string, or null to clear it. */
const optionalText = (field: string) => z.nullish(z.string({ error: `${field} must be a string` }));
const optionalFields = { subject: optionalText('subject'), description: optionalText('description'), preheader: optionalText('preheader') };

/** The body of `POST /v1/templates`: `name` and `html` are required (not blank), the rest text or null. */
export const createTemplateBodySchema = z
  .object({ name: z.string({ error: MISSING }), html: z.string({ error: MISSING }), ...optionalFields }, { error: MISSING })
  .check(z.refine((b: Record<string, unknown>) => nonEmptyString(b.name) && nonEmptyString(b.html), { message: MISSING, ...bodyChecks }));

/** A field an update may set, when given: a string that is not blank. */
const nonEmptyText = (field: string) =>
  z.optional(z.string({ error: `${field} must be a non-empty string` }).check(z.refine((v) => v.trim() !== '', `${field} must be a non-empty string`)));

/** The body of `PUT /v1/templates/:id`: at least one of the fields; name and html cannot be blanked. */
export const updateTemplateBodySchema = z
  .object({ name: nonEmptyText('name'), html: nonEmptyText('html'), ...optionalFields }, { error: NOTHING_TO_UPDATE })
  .check(z.refine((b: Record<string, unknown>) => UPDATABLE_FIELDS.some((f) => b[f] !== undefined), { message: NOTHING_TO_UPDATE, ...bodyChecks }));

/** A `POST /v1/templates` body its schema accepted. */
export type CreateTemplateBody = z.output<typeof createTemplateBodySchema>;
/** A `PUT /v1/templates/:id` body its schema accepted. */
export type UpdateTemplateBody = z.output<typeof updateTemplateBodySchema>;

/** The fields a create sets: the optional texts absent are null. */
export function toCreateTemplate(b: CreateTemplateBody): TemplateFields {
  return { name: b.name, html: b.html, subject: b.subject ?? null, description: b.description ?? null, preheader: b.preheader ?? null };
}

/** The fields an update changes: those given (at least one). */
export function toUpdateTemplate(b: UpdateTemplateBody): Partial<TemplateFields> {
  const changes: Partial<TemplateFields> = {};
  for (const field of UPDATABLE_FIELDS) if (b[field] !== undefined) Object.assign(changes, { [field]: b[field] });
  return changes;
}

/** Validates a `POST /v1/templates` body: `name` and `html` are required, the rest are text or null. */
export function parseCreateTemplate(body: unknown): TemplateFields {
  return toCreateTemplate(parseRequest(createTemplateBodySchema, body));
}

/** Validates a `PUT /v1/templates/:id` body: the fields it changes (at least one). */
export function parseUpdateTemplate(body: unknown): Partial<TemplateFields> {
  return toUpdateTemplate(parseRequest(updateTemplateBodySchema, body));
}
