/**
 * Builds the console (console/src, Preact + uPlot) into static assets with esbuild: app.js and
 * app.css in console/dist, with a manifest naming their content hashes. The console group's
 * function serves them (the stack copies them next to its bundle; the local cloud reads them here).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

/** Where the built console lives, relative to the repository root. */
export const CONSOLE_DIST = 'console/dist';

/** The files a build writes, each served under /console/assets/. */
export const CONSOLE_ASSETS = ['app.js', 'app.css', 'manifest.json'] as const;

/** What the page shell needs to name the assets: a content hash each, for cache busting. */
export interface ConsoleManifest {
  readonly js: string;
  readonly css: string;
  /** Bytes of each asset as served uncompressed. */
  readonly bytes: { readonly js: number; readonly css: number };
}

const ROOT = path.resolve(__dirname, '..');
const SOURCES = path.join(ROOT, 'console/src');

/** Builds the console into `outdir` (console/dist by default) and returns its manifest. */
export function buildConsole(outdir = path.join(ROOT, CONSOLE_DIST)): ConsoleManifest {
  fs.mkdirSync(outdir, { recursive: true });
  // Synchronous: the CDK app builds it while constructing the stack, which cannot await.
  buildSync({
    entryPoints: { app: path.join(SOURCES, 'main.tsx') },
    outdir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: path.join(ROOT, 'console/tsconfig.json'),
    legalComments: 'linked',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const hash = (file: string) => createHash('sha256').update(fs.readFileSync(path.join(outdir, file))).digest('hex').slice(0, 16);
  const size = (file: string) => fs.statSync(path.join(outdir, file)).size;
  const manifest: ConsoleManifest = { js: hash('app.js'), css: hash('app.css'), bytes: { js: size('app.js'), css: size('app.css') } };
  fs.writeFileSync(path.join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Newest modification time of the console's sources (to rebuild only when they changed). */
function newestSource(dir = SOURCES): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the console unless console/dist is newer than every source (npm start, the tests, cdk synth). */
export function ensureConsoleBuilt(): ConsoleManifest {
  const outdir = path.join(ROOT, CONSOLE_DIST);
  const manifestFile = path.join(outdir, 'manifest.json');
  const fresh = fs.existsSync(manifestFile) && CONSOLE_ASSETS.every((f) => fs.existsSync(path.join(outdir, f)))
    && fs.statSync(manifestFile).mtimeMs > newestSource();
  return fresh ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as ConsoleManifest) : buildConsole(outdir);
}

if (require.main === module) {
  const m = buildConsole();
  console.log(`console built: app.js ${m.bytes.js} bytes, app.css ${m.bytes.css} bytes`);
}
