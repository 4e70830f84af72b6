import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The file the stack copies next to the docs bundle (shared/platform/core/routes.ts `assets`), gzipped as the package ships it. */
export const RENDERER_ASSET = 'node_modules/rapidoc/dist/rapidoc-min.js.gz';

let cached: Buffer | undefined;

/**
 * RapiDoc's script, gzipped: beside the bundle in Lambda (the stack copies it there), in
 * node_modules locally. Read once per container.
 */
export function rendererGzip(): Buffer {
  if (cached) return cached;
  const name = RENDERER_ASSET.split('/').pop()!;
  const beside = join(__dirname, name);
  cached = readFileSync(existsSync(beside) ? beside : join(__dirname, '../..', RENDERER_ASSET));
  return cached;
}

/** The script for a client that takes gzip as is, else unzipped. */
export function rendererScript(acceptEncoding: string | undefined): { body: Buffer; gzip: boolean } {
  const gz = rendererGzip();
  return /\bgzip\b/i.test(acceptEncoding ?? '') ? { body: gz, gzip: true } : { body: gunzipSync(gz), gzip: false };
}
