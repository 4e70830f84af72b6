/**
 * Every function bundled in ONE esbuild build with one entry point per function: esbuild parses the
 * shared sources (the AWS SDK, zod, the product's own code) once instead of once per function (34
 * functions: 4.5 s against 36 s, back to back on the shared machine). Without code splitting each entry's output stands
 * alone, byte for byte the file `bundleFunction` (lib/bundling.ts, the stack's settings) writes for
 * it alone; test/unit/bench/bundle-all.test.ts checks that, so the bundle sizes stay those Lambda loads.
 */
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { esbuildOptions, type BundleReport } from '../lib/bundling';

/** Bundles each `{ name, entry }` (entry relative to `root`) into `outdir/<name>/index.js`, as the stack bundles it. */
export async function bundleAll(root: string, functions: readonly { name: string; entry: string }[], outdir: string): Promise<Record<string, BundleReport>> {
  const esbuild = await import('esbuild');
  // The stack's options for one function, with its entry and output file replaced by one per function.
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions('', '');
  const entryPoints = Object.fromEntries(functions.map(({ name, entry }) => [`${name}/index`, path.join(root, entry)]));
  const result = await esbuild.build({ ...options, entryPoints, outdir, absWorkingDir: root, metafile: true });
  const reports: Record<string, BundleReport> = {};
  for (const { name } of functions) {
    const file = path.join(outdir, name, 'index.js');
    const output = result.metafile.outputs[path.relative(root, file).split(path.sep).join('/')];
    if (!output) throw new Error(`esbuild wrote no ${file}`);
    const inputs = Object.keys(output.inputs);
    reports[name] = {
      file,
      bytes: output.bytes,
      bytesBySource: bySource(output.inputs),
      externals: externalsOf(result.metafile, inputs),
      duplicates: duplicatesOf(inputs),
    };
  }
  return reports;
}

// The three readings below are lib/bundling.ts's, over one output of the build; the unit test
// compares each report with bundleFunction's, so a change there that is not made here fails it.

/** Bytes in the output per package (the innermost node_modules folder) or per source folder. */
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

/** The distinct external packages the inputs of one output import (all the build's inputs would mix functions). */
function externalsOf(metafile: Metafile, inputs: readonly string[]): string[] {
  const names = new Set<string>();
  for (const input of inputs) {
    for (const imported of metafile.inputs[input]?.imports ?? []) if (imported.external && !imported.path.startsWith('node:')) names.add(imported.path);
  }
  return [...names].sort();
}
