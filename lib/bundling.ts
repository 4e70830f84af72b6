import * as path from 'node:path';
import type { BuildOptions, Metafile } from 'esbuild';

/**
 * How every function is bundled. ProjectFunction hands these to NodejsFunction, and the bundle
 * bench and the bundle budget test build with the same values through `esbuildOptions`, so the
 * sizes they measure are the sizes Lambda loads.
 */
export const functionBundling = {
  minify: true,
  sourceMap: true,
  // Stack traces need the mappings and file names, not a copy of every source: without the sources
  // (the SDK's are most of them) a map is about 2 MB instead of 5-6, and Node reads it at load
  // (NODE_OPTIONS=--enable-source-maps).
  sourcesContent: false,
  target: 'node22',
  format: 'cjs',
  // Nothing is left to the runtime: its bundled SDK's version is not published nor promised, and
  // some of our commands (CloudFront's distribution tenants) are newer than a runtime may carry.
  // The SDK ships in each bundle at the version the tests run (docs/decisions.md, docs/cost.md).
  externalModules: [] as string[],
} as const;

/** The esbuild options NodejsFunction derives from `functionBundling` (its command line, as an API call). */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    sourcesContent: functionBundling.sourcesContent,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: functionBundling.target,
    format: functionBundling.format,
    minify: functionBundling.minify,
    sourcemap: functionBundling.sourceMap,
    external: [...functionBundling.externalModules],
    logLevel: 'error',
  };
}

/** One function's bundle as Lambda gets it: the file's size and where its bytes come from. */
export interface BundleReport {
  /** The bundle file (`index.js`), its source map beside it. */
  readonly file: string;
  /** Size of `index.js` in bytes (the source map is not loaded unless a stack trace is printed). */
  readonly bytes: number;
  /** Bytes in the output per package (`zod`, `@scope/name`) or per source folder (`shared/mail-pipeline/sending`). */
  readonly bytesBySource: Readonly<Record<string, number>>;
  /** Packages the bundle requires at run time instead of containing them. */
  readonly externals: readonly string[];
  /** Packages bundled from more than one folder (two copies, often two versions), with their folders. */
  readonly duplicates: Readonly<Record<string, readonly string[]>>;
}

/**
 * Bundles `entry` (relative to `root`) into `outdir/index.js` with the stack's options; `external`
 * replaces the stack's external modules (a test that watches which SDK clients load at init).
 */
export async function bundleFunction(root: string, entry: string, outdir: string, options: { external?: string[] } = {}): Promise<BundleReport> {
  const esbuild = await import('esbuild');
  const file = path.join(outdir, 'index.js');
  const build = esbuildOptions(path.join(root, entry), file);
  const result = await esbuild.build({ ...build, external: options.external ?? build.external, absWorkingDir: root, metafile: true });
  return bundleReportOf(root, file, result.metafile);
}

/**
 * The report of one output file of a build: its size, bytes per source, duplicated packages, and
 * the externals imported by the inputs that output holds (in a build of many, functions do not mix;
 * a module esbuild read but left out, as a `sideEffects: false` folder's unused one, requires nothing).
 */
export function bundleReportOf(root: string, file: string, metafile: Metafile): BundleReport {
  const output = metafile.outputs[path.relative(root, file).split(path.sep).join('/')];
  if (!output) throw new Error(`esbuild wrote no ${file}`);
  return {
    file,
    bytes: output.bytes,
    bytesBySource: bySource(output.inputs),
    externals: externalsOf(metafile, Object.keys(output.inputs)),
    duplicates: duplicatesOf(Object.keys(output.inputs)),
  };
}

/** Package names whose files come from more than one `node_modules/<name>` folder. */
function duplicatesOf(inputs: readonly string[]): Record<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const input of inputs) {
    const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
    if (!match) continue;
    const [, folder, name] = match;
    folders.set(name, (folders.get(name) ?? new Set()).add(folder));
  }
  return Object.fromEntries([...folders].filter(([, set]) => set.size > 1).map(([name, set]) => [name, [...set].sort()]));
}

/** Groups a bundle's inputs by package (the innermost node_modules folder) or by source folder. */
function bySource(inputs: Metafile['outputs'][string]['inputs']): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
    const parts = input.split('node_modules/');
    const tail = parts[parts.length - 1];
    const name = parts.length > 1 ? tail.split('/').slice(0, tail.startsWith('@') ? 2 : 1).join('/') : path.dirname(input);
    totals[name] = (totals[name] ?? 0) + bytesInOutput;
  }
  return totals;
}

/** The distinct external packages the given inputs import. */
function externalsOf(metafile: Metafile, inputs: readonly string[]): string[] {
  const names = new Set<string>();
  for (const input of inputs) {
    for (const imported of metafile.inputs[input]?.imports ?? []) if (imported.external && !imported.path.startsWith('node:')) names.add(imported.path);
  }
  return [...names].sort();
}
