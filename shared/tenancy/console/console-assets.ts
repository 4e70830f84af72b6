/**
 * The built console (console/build.ts): beside the function's bundle in Lambda (the stack copies
 * it there), in console/dist locally. Read once per container, gzipped once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The files the console is made of, as the page names them under /console/assets/. */
export const CONSOLE_FILES = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' } as const;

export type ConsoleFile = keyof typeof CONSOLE_FILES;

/** The build's manifest: each file's content hash, which the page puts in the asset URLs. */
export interface ConsoleManifest {
  readonly js: string;
  readonly css: string;
}

const cache = new Map<string, Buffer>();

/** The folder holding the built files: next to the bundle, else the repository's console/dist. */
function folder(): string {
  if (existsSync(join(__dirname, 'manifest.json'))) return __dirname;
  return join(__dirname, '../../../console/dist');
}

function read(name: string): Buffer {
  let bytes = cache.get(name);
  if (!bytes) {
    const file = join(folder(), name);
    if (!existsSync(file)) throw new Error(`The console is not built (${file} is missing): run npm run console:build`);
    bytes = readFileSync(file);
    cache.set(name, bytes);
  }
  return bytes;
}

let manifest: ConsoleManifest | undefined;

/** The manifest of the build this function serves (parsed once: the page names two hashes per request). */
export function consoleManifest(): ConsoleManifest {
  manifest ??= JSON.parse(read('manifest.json').toString('utf8')) as ConsoleManifest;
  return manifest;
}

/** A file's content hash as the manifest gives it. */
export function hashOf(file: ConsoleFile): string {
  const { js, css } = consoleManifest();
  return file === 'app.js' ? js : css;
}

/** A file's bytes, gzipped when the client takes gzip (the script shrinks about threefold). */
export function consoleFile(file: ConsoleFile, acceptEncoding: string | undefined): { body: Buffer; gzip: boolean } {
  const plain = read(file);
  if (!/\bgzip\b/i.test(acceptEncoding ?? '')) return { body: plain, gzip: false };
  const key = `${file}.gz`;
  let zipped = cache.get(key);
  if (!zipped) {
    zipped = gzipSync(plain, { level: 9 });
    cache.set(key, zipped);
  }
  return { body: zipped, gzip: true };
}
