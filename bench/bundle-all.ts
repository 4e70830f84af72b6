/**
 * Every function bundled in ONE esbuild build with one entry point per function: esbuild parses the
 * shared sources (the AWS SDK, zod, the product's own code) once instead of once per function (34
 * functions: 4.5 s against 36 s, back to back on the shared machine). Without code splitting each entry's output stands
 * alone, byte for byte the file `bundleFunction` (lib/bundling.ts, the stack's settings) writes for
 * it alone; test/unit/bench/bundle-all.test.ts checks that, so the bundle sizes stay those Lambda loads.
 */
import path from 'node:path';
import { bundleReportOf, esbuildOptions, type BundleReport } from '../lib/bundling';

/** Bundles each `{ name, entry }` (entry relative to `root`) into `outdir/<name>/index.js`, as the stack bundles it. */
export async function bundleAll(root: string, functions: readonly { name: string; entry: string }[], outdir: string): Promise<Record<string, BundleReport>> {
  const esbuild = await import('esbuild');
  // The stack's options for one function, with its entry and output file replaced by one per function.
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions('', '');
  const entryPoints = Object.fromEntries(functions.map(({ name, entry }) => [`${name}/index`, path.join(root, entry)]));
  const result = await esbuild.build({ ...options, entryPoints, outdir, absWorkingDir: root, metafile: true });
  return Object.fromEntries(functions.map(({ name }) => [name, bundleReportOf(root, path.join(outdir, name, 'index.js'), result.metafile)]));
}
