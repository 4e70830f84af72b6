import * as z from '../../platform/core/zod';
import { parseRequest } from '../../platform/core/validate';
import { IMPORT_FORMATS, type ImportFormat } from './lead-import';

/** Largest file sent inline as `content`; larger files go through the upload URL (API Gateway takes 10 MB, Lambda 6 MB). */
export const MAX_INLINE_BYTES = 4 * 1024 * 1024;

const FORMAT = `format must be one of: ${IMPORT_FORMATS.join(', ')}`;
const CONTENT = 'content must be a string (the file\'s text)';

/**
 * `POST /v1/leads/imports`: `format` (csv or jsonl, any case), and `content` (the file inline, 1 byte
 * to 4 MB) or none (the answer carries an upload URL).
 */
export const importCreateBodySchema = z.object(
  {
    format: z
      .string({ error: (issue) => (issue.input == null ? 'format is required' : FORMAT) })
      .check(
        z.refine((v) => v !== '', { message: 'format is required', abort: true }),
        z.refine((v) => (IMPORT_FORMATS as readonly string[]).includes(v.toLowerCase()), FORMAT),
      ),
    content: z.optional(
      z.string({ error: CONTENT }).check(
        z.refine((v) => v !== '', { message: 'content must not be empty', abort: true }),
        z.refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_INLINE_BYTES, `content is larger than ${MAX_INLINE_BYTES / 1024 / 1024} MB; upload the file to an upload URL instead (omit content)`),
      ),
    ),
  },
  { error: 'Request body must be a JSON object' },
);

/** What an import is created with: the format (lowercased), and the inline file's bytes when given. */
export interface ImportCreateInput {
  format: ImportFormat;
  content?: Buffer;
}

/** POST /v1/leads/imports: a validated body as the service takes it. */
export function toImportCreate(b: z.output<typeof importCreateBodySchema>): ImportCreateInput {
  const format = b.format.toLowerCase() as ImportFormat;
  return b.content === undefined ? { format } : { format, content: Buffer.from(b.content, 'utf8') };
}

/** POST /v1/leads/imports: checks a raw body (the 400 of its first problem) and maps it. */
export function parseImportCreate(body: unknown): ImportCreateInput {
  return toImportCreate(parseRequest(importCreateBodySchema, body));
}
