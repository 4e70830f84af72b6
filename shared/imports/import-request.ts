import { badRequest } from '../errors';
import { isObject } from '../audience/lead-input';
import { IMPORT_FORMATS, type ImportFormat } from './lead-import';

/** Largest file sent inline as `content`; larger files go through the upload URL (API Gateway takes 10 MB, Lambda 6 MB). */
export const MAX_INLINE_BYTES = 4 * 1024 * 1024;

/** `format`: csv or jsonl (required). */
export function parseFormat(value: unknown): ImportFormat {
  if (value === undefined || value === null || value === '') throw badRequest('format is required');
  if (typeof value !== 'string' || !(IMPORT_FORMATS as readonly string[]).includes(value.toLowerCase())) throw badRequest(`format must be one of: ${IMPORT_FORMATS.join(', ')}`);
  return value.toLowerCase() as ImportFormat;
}

/** POST /v1/leads/imports: `format`, and `content` (the file inline) or none (an upload URL). */
export function parseImportCreate(body: unknown): { format: ImportFormat; content?: Buffer } {
  if (!isObject(body)) throw badRequest('Request body must be a JSON object');
  const format = parseFormat(body.format);
  if (body.content === undefined) return { format };
  if (typeof body.content !== 'string') throw badRequest('content must be a string (the file\'s text)');
  const content = Buffer.from(body.content, 'utf8');
  if (content.length === 0) throw badRequest('content must not be empty');
  if (content.length > MAX_INLINE_BYTES) throw badRequest(`content is larger than ${MAX_INLINE_BYTES / 1024 / 1024} MB; upload the file to an upload URL instead (omit content)`);
  return { format, content };
}
