/**
 * What the benchmark entries share: a local cloud of their own (free ports, a temporary data
 * folder, stopped and removed however the run ends) and bench/results.json, where each benchmark
 * sets its own key among the figures of its scale (bench/scale.ts) and leaves the others as they are.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalCloud } from '../local/cloud';
import { PRICES_DATE } from './prices';
import { scaleLabel, type ScaleLabel } from './scale';

/** bench/results.json: per scale (`small`, `full`, `custom`), one key per benchmark (`single`, `batch`, `campaign`, `functions`...). */
export const RESULTS_FILE = path.join(__dirname, 'results.json');

/**
 * Runs `measure` against a fresh local cloud, then stops the cloud and deletes its data. The queue
 * workers are off unless `workers` says so: most benchmarks drain the queues into the handlers
 * themselves, to time each step.
 */
export async function withBenchCloud<T>(measure: (cloud: LocalCloud) => Promise<T>, options: { workers?: boolean; name?: string } = {}): Promise<T> {
  // Imported when run: importing the bench modules (the unit tests do) must not load the emulators.
  const { startLocalCloud } = await import('../local/cloud');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mailroom-${options.name ?? 'bench'}-`));
  try {
    const cloud = await startLocalCloud({ dataDir, persist: false, ports: { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 }, workers: options.workers ?? false });
    try {
      return await measure(cloud);
    } finally {
      await cloud.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** bench/results.json as it stands (empty when absent). */
export function readResults(file = RESULTS_FILE): Record<string, unknown> {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
}

/** One benchmark's figures as last recorded at `label` (undefined when that scale has none). */
export function readFigure(key: string, label: ScaleLabel = scaleLabel(), file = RESULTS_FILE): Record<string, unknown> | undefined {
  const group = readResults(file)[label] as Record<string, unknown> | undefined;
  return group?.[key] as Record<string, unknown> | undefined;
}

/**
 * Sets `key` among the figures of scale `label` in bench/results.json, the figure carrying its scale,
 * with the date of the prices the dollar figures use. The other scales' figures and the other keys
 * are kept: a small run never overwrites a full run's figures.
 */
export function writeResults(key: string, value: object, label: ScaleLabel = scaleLabel(), file = RESULTS_FILE): void {
  const results = readResults(file);
  const group = (results[label] ?? {}) as Record<string, unknown>;
  results[label] = { ...group, prices_date: PRICES_DATE, [key]: { scale: label, ...value } };
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
