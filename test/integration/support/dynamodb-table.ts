import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoDb } from '../../../local/emulators/dynamodb';
import { freePort } from '../../../local/free-port';
import { provisionTable } from '../../../local/provision';
import { createDocumentClient, type Db } from '../../../shared/platform/store/client';
import { sharedDynamoDbTable } from './shared-dynamodb';

/** The single table alone, in a private in-memory DynamoDB Local: for repository tests that need no other emulator. */
export interface TestTable {
  readonly db: Db;
  stop(): Promise<void>;
}

/**
 * Creates the table from the stack's own definition: in the run's shared DynamoDB Local (deleted
 * again on stop), else in a DynamoDB Local of its own on a free port.
 */
export async function startTestTable(): Promise<TestTable> {
  const shared = sharedDynamoDbTable();
  const pidDir = shared ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-table-'));
  const emulator = pidDir ? await startDynamoDb({ port: await freePort(), pidDir, quickStart: true }) : undefined;
  const tableName = shared?.tableName ?? 'mailroom';
  const endpoint = shared?.endpoint ?? emulator!.endpoint;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const stop = async () => {
    if (shared) await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
    client.destroy();
    await emulator?.stop();
    if (pidDir) fs.rmSync(pidDir, { recursive: true, force: true });
  };
  try {
    await provisionTable(client, tableName);
  } catch (error) {
    await stop();
    throw error;
  }
  return { db: { doc: createDocumentClient(client), tableName }, stop };
}
