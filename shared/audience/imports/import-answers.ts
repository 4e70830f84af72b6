import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';
import { IMPORT_FORMATS } from './lead-import';

/** A lead import as presentImport builds it (shared/audience/imports/lead-import.ts). */
export const leadImportSchema = z
  .strictObject({
    id: uuidSchema,
    status: z.enum(['awaiting_upload', 'queued', 'running', 'done', 'failed']),
    format: z.enum(IMPORT_FORMATS),
    progress: z.strictObject({
      bytes_read: z.int(),
      total_bytes: z.nullable(z.int()),
      percent: z.int().check(z.meta({ description: 'Share of the file read: 100 only once done' })),
    }),
    rows_processed: z.int(),
    leads_created: z.int(),
    leads_updated: z.int(),
    rows_failed: z.int(),
    duplicates: z.int().check(z.meta({ description: 'Rows superseded by a later row of the same email (the last wins)' })),
    warnings: z.array(z.string()).check(z.meta({ description: 'Segment ids rows named that are not static segments of the project (the first 100)' })),
    error: z.nullable(z.string()),
    errors_url: z.string().check(z.meta({ description: 'Path of the failed rows\' CSV report' })),
    created_at: instantSchema,
    started_at: z.nullable(instantSchema),
    finished_at: z.nullable(instantSchema),
  })
  .check(
    z.meta({
      id: 'LeadImport',
      description:
        'A lead import: `awaiting_upload` (PUT the file to the upload URL, then start it), `queued`, `running`, `done` or `failed` (`error` says why); its progress and counts, and the CSV of its failed rows at `errors_url`. `warnings` lists segment ids rows named that are not static segments of the project',
    }),
  );

/** `{success, import}`: the answer of show and start. */
export const leadImportAnswerSchema = z
  .strictObject({ success: z.literal(true), import: leadImportSchema })
  .check(z.meta({ id: 'LeadImportAnswer', description: 'One lead import' }));

/** The answer of `POST /v1/leads/imports`: the import, and the URL to PUT the file to when no `content` was given. */
export const leadImportCreatedSchema = z
  .strictObject({
    success: z.literal(true),
    import: leadImportSchema,
    upload: z.optional(
      z.strictObject({
        method: z.literal('PUT'),
        url: z.string().check(z.meta({ format: 'uri' })),
        expires_at: instantSchema,
      }),
    ),
  })
  .check(z.meta({ id: 'LeadImportCreated', description: 'The new import: queued with inline content, or awaiting its file at `upload.url` (valid until `expires_at`)' }));

/** A realistic import for the docs. */
export const leadImportExample = {
  id: '7e1d3c5b-9a2f-4b8e-a6c4-2d0f8e6b4a13',
  status: 'queued',
  format: 'csv',
  progress: { bytes_read: 0, total_bytes: 38, percent: 0 },
  rows_processed: 0,
  leads_created: 0,
  leads_updated: 0,
  rows_failed: 0,
  duplicates: 0,
  warnings: [],
  error: null,
  errors_url: '/v1/leads/imports/7e1d3c5b-9a2f-4b8e-a6c4-2d0f8e6b4a13/errors',
  created_at: '2026-11-26T09:30:00.000Z',
  started_at: null,
  finished_at: null,
} as const;
