/**
 * The walk of a batch recipient, in code: the functions a batch mail passes through (the batch
 * route, the fan-out, the batch and send workers, the SES events, the webhook fan-out and delivery),
 * bundled as the stack bundles them (lib/bundling.ts), and for each and for their union the project
 * source files they load and the folders those files sit in. A file counts when esbuild reaches it
 * through run-time imports from the entry (type-only imports are erased, so they do not count); a
 * folder is a file's directory relative to the repository (`shared/mail-pipeline/batches`), counted for the whole
 * project and for shared/ alone. `in_output` counts only the files that keep bytes in the bundles. Runs in `npm run bench`, or alone: `npx tsx bench/mail-path.ts`.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Metafile } from 'esbuild';
import { esbuildOptions } from '../lib/bundling';

const ROOT = path.resolve(__dirname, '..');

/** The functions on a batch mail's path, in the order the mail meets them. */
export const MAIL_PATH: readonly { name: string; entry: string }[] = [
  { name: 'batches', entry: 'functions/batches/handler.ts' },
  { name: 'batch-fanout', entry: 'functions/batch-fanout/handler.ts' },
  { name: 'batch-send-worker', entry: 'functions/batch-send-worker/handler.ts' },
  { name: 'send-worker', entry: 'functions/send-worker/handler.ts' },
  { name: 'ses-events', entry: 'functions/ses-events/handler.ts' },
  { name: 'webhook-fanout', entry: 'functions/webhook-fanout/handler.ts' },
  { name: 'webhook-delivery', entry: 'functions/webhook-delivery/handler.ts' },
];

/** What a set of project files spans. */
export interface Reach {
  files: number;
  folders: number;
  shared_files: number;
  shared_folders: number;
  /** shared/'s folders as the layering rules count them (test/unit/architecture/layers.test.ts): `<wing>/<folder>`, a sub-folder with its parent, a wing's own files as one. */
  layer_folders: number;
}

/** The mail path's reach, per function and for their union. */
export interface MailPathFigures {
  functions: Record<string, Reach>;
  path: Reach;
  /** The same counts over the files that keep bytes in the bundles (after tree shaking). */
  in_output: { functions: Record<string, Reach>; path: Reach };
}

/** The project files (not packages) reachable from `entry` through the build's run-time imports. */
export function reachable(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !metafile.inputs[file]) continue;
    seen.add(file);
    for (const imported of metafile.inputs[file].imports) {
      if (!imported.external && !imported.path.includes('node_modules/')) queue.push(imported.path);
    }
  }
  return seen;
}

/** Files and folders of a set of repo-relative files, shared/ apart. */
export function reachOf(files: Iterable<string>): Reach {
  const all = [...files];
  const shared = all.filter((f) => f.startsWith('shared/'));
  const folders = (list: string[]) => new Set(list.map((f) => path.posix.dirname(f))).size;
  const inWings = existsSync(path.join(ROOT, 'shared', 'platform'));
  const layerFolder = (f: string) => f.split('/').slice(0, Math.min(inWings ? 3 : 2, f.split('/').length - 1)).join('/');
  return { files: all.length, folders: folders(all), shared_files: shared.length, shared_folders: folders(shared), layer_folders: new Set(shared.map(layerFolder)).size };
}

/** Bundles the path's functions in one build and measures each one's reach and the union's. */
export async function measureMailPath(root = ROOT): Promise<MailPathFigures> {
  const esbuild = await import('esbuild');
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions('', '');
  const result = await esbuild.build({
    ...options,
    entryPoints: Object.fromEntries(MAIL_PATH.map(({ name, entry }) => [name, path.join(root, entry)])),
    outdir: path.join(os.tmpdir(), 'mail-path'),
    absWorkingDir: root,
    metafile: true,
    write: false,
    minify: false,
    sourcemap: false,
  });
  const functions: Record<string, Reach> = {};
  const union = new Set<string>();
  const outputFunctions: Record<string, Reach> = {};
  const outputUnion = new Set<string>();
  const outputs = Object.values(result.metafile.outputs);
  for (const { name, entry } of MAIL_PATH) {
    const files = reachable(result.metafile, entry);
    for (const file of files) union.add(file);
    functions[name] = reachOf(files);
    const output = outputs.find((o) => o.entryPoint === entry);
    const kept = Object.entries(output?.inputs ?? {})
      .filter(([file, input]) => input.bytesInOutput > 0 && !file.includes('node_modules/'))
      .map(([file]) => file);
    for (const file of kept) outputUnion.add(file);
    outputFunctions[name] = reachOf(kept);
  }
  return { functions, path: reachOf(union), in_output: { functions: outputFunctions, path: reachOf(outputUnion) } };
}

/** Prints the figures as a table and one JSON line. */
export function printMailPath(figures: MailPathFigures): void {
  const rows: [string, Reach][] = [...Object.entries(figures.functions), ['the path (union)', figures.path]];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log('\nThe walk of a batch recipient: project files and folders each function loads\n');
  console.log(`  ${'function'.padEnd(width)}  files  folders  shared files  shared folders`);
  for (const [name, r] of rows) {
    console.log(`  ${name.padEnd(width)}  ${String(r.files).padStart(5)}  ${String(r.folders).padStart(7)}  ${String(r.shared_files).padStart(12)}  ${String(r.shared_folders).padStart(14)}`);
  }
  const kept = figures.in_output.path;
  console.log(`\n  with bytes in the bundles (after tree shaking): ${kept.files} files in ${kept.folders} folders (shared/: ${kept.shared_files} in ${kept.shared_folders}, ${kept.layer_folders} as the layering rules count folders)`);
  console.log(`\nmail-path ${JSON.stringify(figures)}\n`);
}

/** The bench step: measure and print (a second or two: one build, nothing written). */
export async function runMailPathBench(): Promise<MailPathFigures> {
  const figures = await measureMailPath();
  printMailPath(figures);
  return figures;
}

if (require.main === module) {
  runMailPathBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
