/**
 * What the benchmark entries share: a local cloud of their own (free ports, a temporary data
 * folder, stopped and removed however the run ends) and bench/results.json, where each benchmark
 * sets its own key and leaves the others' as they are.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalCloud } from '../local/cloud';
import { PRICES_DATE } from './prices';

/** bench/results.json: one key per benchmark (`single`, `batch`, `campaign`, `functions`...). */
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

/** Sets `key` in bench/results.json, keeping every other key, with the date of the prices the dollar figures use. */
export function writeResults(key: string, value: unknown, file = RESULTS_FILE): void {
  fs.writeFileSync(file, `${JSON.stringify({ ...readResults(file), prices_date: PRICES_DATE, [key]: value }, null, 2)}\n`);
}
