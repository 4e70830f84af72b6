/**
 * What the benchmark entries share: a local cloud of their own (free ports, a temporary data
 * folder, stopped and removed however the run ends; its own table in the run's one DynamoDB Local
 * when `withSharedDynamoDb` started one) and bench/results.json, where each benchmark
 * sets its own key among the figures of its scale (bench/scale.ts) and leaves the others as they are.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LocalCloud } from '../local/cloud';
import { PRICES_DATE } from './prices';
import { scaleLabel, type ScaleLabel } from './scale';

/** bench/results.json: per scale (`small`, `full`, `custom`), one key per benchmark (`single`, `batch`, `campaign`, `functions`...). */
export const RESULTS_FILE = path.join(__dirname, 'results.json');

/** The endpoint of the DynamoDB Local `withSharedDynamoDb` runs, while it runs. */
let sharedDynamoDb: string | undefined;

/**
 * Runs `run` with one DynamoDB Local (full JVM flags, as each cloud had its own) for every cloud
 * started meanwhile: each makes a fresh table in it and deletes it when it stops, so a part starts
 * from an empty table as before, without a JVM start of several seconds per part. The fault clouds
 * (test/faults/support/fault-cloud.ts) find it through the integration suite's variable.
 */
export async function withSharedDynamoDb<T>(run: () => Promise<T>): Promise<T> {
  if (sharedDynamoDb) return run();
  // Imported when run, as the cloud is below.
  const { startDynamoDb } = await import('../local/emulators/dynamodb');
  const { freePort } = await import('../local/free-port');
  const { SHARED_DYNAMODB_ENV } = await import('../test/integration/support/shared-dynamodb');
  const pidDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-ddb-'));
  try {
    // A free port can be taken by another process before the JVM binds it: then choose again.
    const start = async (attempt = 1): Promise<Awaited<ReturnType<typeof startDynamoDb>>> => {
      try {
        return await startDynamoDb({ port: await freePort(), pidDir });
      } catch (error) {
        if (attempt >= 3 || !/Address already in use/.test(String(error))) throw error;
        return start(attempt + 1);
      }
    };
    const emulator = await start();
    const before = process.env[SHARED_DYNAMODB_ENV];
    sharedDynamoDb = emulator.endpoint;
    process.env[SHARED_DYNAMODB_ENV] = emulator.endpoint;
    try {
      return await run();
    } finally {
      sharedDynamoDb = undefined;
      if (before === undefined) delete process.env[SHARED_DYNAMODB_ENV];
      else process.env[SHARED_DYNAMODB_ENV] = before;
      await emulator.stop();
    }
  } finally {
    fs.rmSync(pidDir, { recursive: true, force: true });
  }
}

/**
 * Runs `measure` against a fresh local cloud, then stops the cloud and deletes its data. The queue
 * workers are off unless `workers` says so: most benchmarks drain the queues into the handlers
 * themselves, to time each step. `schedules: false` stops the scheduled jobs too (a benchmark that
 * runs one itself, metered).
 */
export async function withBenchCloud<T>(measure: (cloud: LocalCloud) => Promise<T>, options: { workers?: boolean; schedules?: boolean; name?: string } = {}): Promise<T> {
  // Imported when run: importing the bench modules (the unit tests do) must not load the emulators.
  const { startLocalCloud } = await import('../local/cloud');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mailroom-${options.name ?? 'bench'}-`));
  try {
    const dynamodb = sharedDynamoDb ? { endpoint: sharedDynamoDb, tableName: `mailroom-${randomUUID()}` } : undefined;
    const cloud = await startLocalCloud({ dataDir, persist: false, ports: { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 }, workers: options.workers ?? false, schedules: options.schedules, dynamodb });
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
