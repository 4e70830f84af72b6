import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDynamoDb, type RunningEmulator } from '../../../local/emulators/dynamodb';
import { onFreePort } from '../../../local/free-port';

/**
 * One DynamoDB Local for the whole integration run, started by jest's globalSetup: a JVM start
 * costs seconds per file, a table costs milliseconds. Each test cloud makes its own table in it.
 * The endpoint reaches the test files (and jest's workers) through this environment variable.
 */
export const SHARED_DYNAMODB_ENV = 'MAILROOM_TEST_DYNAMODB_ENDPOINT';

interface Shared {
  emulator: RunningEmulator;
  pidDir: string;
}
const HANDLE = Symbol.for('mailroom.shared-dynamodb');

/** The shared emulator's endpoint and a table name no other test cloud uses; none outside a jest run with the globalSetup. */
export function sharedDynamoDbTable(): { endpoint: string; tableName: string } | undefined {
  const endpoint = process.env[SHARED_DYNAMODB_ENV];
  return endpoint ? { endpoint, tableName: `mailroom-${randomUUID()}` } : undefined;
}

/** Starts the shared DynamoDB Local (jest globalSetup); a port taken in the meantime is chosen again. */
export async function startSharedDynamoDb(): Promise<void> {
  const pidDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-shared-ddb-'));
  try {
    const emulator = await onFreePort(0, (port) => startDynamoDb({ port, pidDir }), 3);
    (globalThis as Record<symbol, Shared>)[HANDLE] = { emulator, pidDir };
    process.env[SHARED_DYNAMODB_ENV] = emulator.endpoint;
  } catch (error) {
    fs.rmSync(pidDir, { recursive: true, force: true });
    throw error;
  }
}

/** Stops the shared DynamoDB Local by its pid (jest globalTeardown). */
export async function stopSharedDynamoDb(): Promise<void> {
  const shared = (globalThis as Record<symbol, Shared | undefined>)[HANDLE];
  if (!shared) return;
  delete (globalThis as Record<symbol, Shared | undefined>)[HANDLE];
  delete process.env[SHARED_DYNAMODB_ENV];
  await shared.emulator.stop();
  fs.rmSync(shared.pidDir, { recursive: true, force: true });
}
