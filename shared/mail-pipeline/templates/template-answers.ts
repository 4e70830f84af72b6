import * as z from '../../platform/core/zod';
import { errorBodySchema } from '../../platform/http/answers';
import { boundedPaginationSchema, instantSchema, uuidSchema } from '../../platform/http/answer-fields';

const templateFields = {
  id: uuidSchema,
  internal_id: z.number().check(z.meta({ description: 'Short number, unique per project; accepted wherever an id is' })),
  project_id: uuidSchema,
  name: z.string(),
  subject: z.nullable(z.string()),
  description: z.nullable(z.string()),
  preheader: z.nullable(z.string()),
  version: z.number().check(z.meta({ description: 'Bumped on every update' })),
  created_at: instantSchema,
  updated_at: instantSchema,
};

/** A template as the API shows it (presentTemplate), its HTML included. */
export const templateSchema = z
  .strictObject({ ...templateFields, html: z.string() })
  .check(z.meta({ id: 'Template', description: 'A stored template (part 2): its HTML exactly as sent' }));

/** A template in a list: `html` is empty. */
export const templateListEntrySchema = z
  .strictObject({ ...templateFields, html: z.literal('').check(z.meta({ description: 'Always empty in a list: read one template for its HTML' })) })
  .check(z.meta({ id: 'TemplateListEntry', description: 'A template in a list: its HTML left out (empty)' }));

/** The answer of a create, read or update: the template. */
export const templateAnswerSchema = z.strictObject({ success: z.literal(true), data: templateSchema });

/** The answer of `GET /v1/templates`. */
export const templateListAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(templateListEntrySchema),
  pagination: boundedPaginationSchema('TemplatePagination'),
});

/** The answer of `DELETE /v1/templates/:id`. */
export const templateDeletedAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.strictObject({ id: uuidSchema, internal_id: z.number(), deleted: z.literal(true) }),
});

/** The 409 of a delete refused while campaigns or automation steps use the template (4.7). */
export const templateInUseSchema = z
  .strictObject({
    error: z.string(),
    code: z.literal('TEMPLATE_IN_USE'),
    automation_nodes: z.array(z.string()).check(z.meta({ description: 'Ids of the automation steps that use the template' })),
    campaigns: z.array(z.string()).check(z.meta({ description: 'Ids of the campaigns that use the template' })),
  })
  .check(z.meta({ id: 'TemplateInUse', description: 'The template is in use: nothing was deleted; `force=true` deletes it anyway' }));

/** A delete's 409: in use, or changed while it was being deleted (a retry resolves it). */
export const templateDeleteConflictSchema = z.union([templateInUseSchema, errorBodySchema]);

/** A realistic template, for the docs. */
export const templateExample = {
  id: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
  internal_id: 12,
  project_id: '0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87',
  name: 'Welcome',
  subject: 'Welcome, {{name}}',
  description: 'Sent after sign-up',
  preheader: 'Your account is ready',
  html: '<p>Hi {{name}}, welcome aboard.</p>',
  version: 3,
  created_at: '2026-11-20T10:15:00.000Z',
  updated_at: '2026-11-25T16:42:10.000Z',
};
