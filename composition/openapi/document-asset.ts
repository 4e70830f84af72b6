import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The document `npm run openapi` writes, which the stack copies next to the docs bundle (shared/platform/core/routes.ts `assets`). */
export const DOCUMENT_ASSET = 'openapi/openapi.json';

let cached: Record<string, unknown> | undefined;

/**
 * The OpenAPI document: beside the bundle in Lambda, in the repository locally. Read once per
 * container; a file rather than part of the bundle, so the function's code stays small however
 * much the document describes.
 */
export function openApiDocumentAsset(): Record<string, unknown> {
  if (cached) return cached;
  const beside = join(__dirname, 'openapi.json');
  cached = JSON.parse(readFileSync(existsSync(beside) ? beside : join(__dirname, '../..', DOCUMENT_ASSET), 'utf8')) as Record<string, unknown>;
  return cached;
}
