import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoDb } from '../../../local/emulators/dynamodb';
import { freePort } from '../../../local/free-port';
import { provisionTable } from '../../../local/provision';
import { createDocumentClient, type Db } from '../../../shared/store/client';

/** The single table alone, in a private in-memory DynamoDB Local: for repository tests that need no other emulator. */
export interface TestTable {
  readonly db: Db;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local on a free port and creates the table from the stack's own definition. */
export async function startTestTable(): Promise<TestTable> {
  const pidDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-table-'));
  const emulator = await startDynamoDb({ port: await freePort(), pidDir });
  const client = new DynamoDBClient({ endpoint: emulator.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await provisionTable(client, 'mailroom');
  } catch (error) {
    await emulator.stop();
    throw error;
  }
  return {
    db: { doc: createDocumentClient(client), tableName: 'mailroom' },
    stop: async () => {
      client.destroy();
      await emulator.stop();
      fs.rmSync(pidDir, { recursive: true, force: true });
    },
  };
}
