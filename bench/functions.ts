/**
 * The per-function half of `npm run bench`: every function of the route table bundled as the stack
 * bundles it (lib/bundling.ts; all in one esbuild build, bench/bundle-all.ts, the same bytes), its minified size, and its cold init time: a fresh `node` process,
 * started with the NODE_OPTIONS the stack sets, requiring the bundle and reading its handler.
 * Handler CPU per request comes from bench/handler-cpu.ts, for every function it drives; the others
 * (INIT_ONLY_FUNCTIONS there) are measured for bundle and init only, and the table says why. Runs at the end of `npm run bench`, or alone:
 * `npx tsx bench/functions.ts` (all) or `npx tsx bench/functions.ts send inbound` (sizes and init of some).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BundleReport } from '../lib/bundling';
import { bundleAll } from './bundle-all';
import { writeResults } from './bench-cloud';
import { scalePlan } from './scale';
import { timed } from './wall-time';
import { bucketFunctions, endpointGroups, schedules, workers } from '../shared/platform/core/routes';

const ROOT = path.resolve(__dirname, '..');

/** One function's figures, as bench/results.json holds them under `functions`. */
export interface FunctionFigures {
  bundle_kb: number;
  /** Median wall time of the load in a fresh process. */
  init_ms: number;
  /** Median CPU time (user + system) of the same load: steadier than wall time on a shared machine. */
  init_cpu_ms: number;
  /** Handler CPU per request, for the functions bench/handler-cpu.ts drives. */
  cpu_ms?: number;
  /** The user-mode part of cpu_ms (handler-cpu.ts). */
  cpu_user_ms?: number;
  /** DynamoDB requests per request, for the same functions (each costs the SDK's serialising, signing and HTTP). */
  dynamodb_requests?: number;
  /** Why a function has no handler-CPU figure (bench/handler-cpu.ts, INIT_ONLY_FUNCTIONS). */
  cpu_note?: string;
  /** The largest contributors to the bundle, in KB. */
  top_kb: Record<string, number>;
}

/** Every function the stack deploys, by name: endpoint groups, queue workers, schedules and bucket functions. */
export function deployedFunctions(): { name: string; entry: string }[] {
  const tables = [endpointGroups, workers, schedules, bucketFunctions] as readonly Readonly<Record<string, { entry: string }>>[];
  return tables.flatMap((table) => Object.entries(table).map(([name, def]) => ({ name, entry: def.entry })));
}

// Runs in the child: times the require of the bundle and the read of its handler export.
const LOADER = `
const wall0 = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
const mod = require(process.env.BENCH_BUNDLE);
if (typeof mod.handler !== 'function') throw new Error('no handler export');
const cpu = process.cpuUsage(cpu0);
process.stdout.write(JSON.stringify({ wall: Number(process.hrtime.bigint() - wall0) / 1e6, cpu: (cpu.user + cpu.system) / 1000 }));
`;

/** Load times of a bundle in fresh processes, as Lambda starts it (source maps enabled). */
export function measureInit(bundle: BundleReport, runs = scalePlan().function_init_runs): { wall: number; cpu: number } {
  const samples: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const out = execFileSync(process.execPath, ['--enable-source-maps', '-e', LOADER], {
      // The SDK ships in the bundle (lib/bundling.ts); NODE_PATH only serves a bundle built with it left out.
      env: { PATH: process.env.PATH, NODE_PATH: path.join(ROOT, 'node_modules'), BENCH_BUNDLE: bundle.file, AWS_REGION: 'us-east-1' },
      encoding: 'utf8',
    });
    samples.push(JSON.parse(out) as { wall: number; cpu: number });
  }
  return { wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) };
}

/** Bundles and loads every deployed function; `only` limits the run to some names. */
export async function measureFunctions(only?: readonly string[]): Promise<Record<string, FunctionFigures>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bundles-'));
  const figures: Record<string, FunctionFigures> = {};
  try {
    const functions = deployedFunctions().filter(({ name }) => !only || only.includes(name));
    const bundles = await timed('functions: bundle', () => bundleAll(ROOT, functions, dir));
    await timed('functions: cold init', async () => {
      for (const { name } of functions) {
        const bundle = bundles[name];
        for (const [pkg, folders] of Object.entries(bundle.duplicates)) console.warn(`${name} bundles ${pkg} twice: ${folders.join(', ')}`);
        const init = measureInit(bundle);
        const top = Object.entries(bundle.bytesBySource).sort((a, b) => b[1] - a[1]).slice(0, 5);
        figures[name] = {
          bundle_kb: round(bundle.bytes / 1024),
          init_ms: round(init.wall),
          init_cpu_ms: round(init.cpu),
          top_kb: Object.fromEntries(top.map(([source, bytes]) => [source, round(bytes / 1024)])),
        };
      }
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

/** The figures as a table for the console. */
export function printFunctionTable(functions: Record<string, FunctionFigures>): void {
  console.log('\nMailroom benchmark: functions (bundle, cold init, handler CPU)\n');
  console.log(`  ${'function'.padEnd(24)} ${'bundle KB'.padStart(9)} ${'init ms'.padStart(8)} ${'init CPU'.padStart(8)} ${'CPU/req'.padStart(8)} ${'DDB/req'.padStart(8)}  largest parts (KB)`);
  for (const [name, f] of Object.entries(functions)) {
    const parts = Object.entries(f.top_kb).map(([k, v]) => `${k} ${v}`).join(', ');
    const cpu = f.cpu_ms === undefined ? '' : f.cpu_ms.toFixed(2);
    const calls = f.dynamodb_requests === undefined ? '' : f.dynamodb_requests.toFixed(1);
    console.log(`  ${name.padEnd(24)} ${f.bundle_kb.toFixed(0).padStart(9)} ${f.init_ms.toFixed(0).padStart(8)} ${f.init_cpu_ms.toFixed(0).padStart(8)} ${cpu.padStart(8)} ${calls.padStart(8)}  ${parts}`);
    if (f.cpu_note) console.log(`  ${''.padEnd(24)} bundle and init only: ${f.cpu_note}`);
  }
  console.log('');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The whole per-function bench: sizes and init for every function, handler CPU for the main ones; prints and records them. */
export async function runFunctionBench(only?: readonly string[]): Promise<void> {
  const figures = await measureFunctions(only);
  if (!only) {
    const { INIT_ONLY_FUNCTIONS, measureHandlerCpu } = await import('./handler-cpu');
    for (const [name, measured] of Object.entries(await timed('functions: handler CPU', measureHandlerCpu))) {
      if (figures[name]) Object.assign(figures[name], { cpu_ms: round(measured.cpu_ms), cpu_user_ms: round(measured.cpu_user_ms), dynamodb_requests: round(measured.dynamodb_requests) });
    }
    for (const [name, note] of Object.entries(INIT_ONLY_FUNCTIONS)) if (figures[name]) figures[name].cpu_note = note;
  }
  printFunctionTable(figures);
  writeResults('functions', figures);
}

if (require.main === module) {
  runFunctionBench(process.argv.length > 2 ? process.argv.slice(2) : undefined).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
