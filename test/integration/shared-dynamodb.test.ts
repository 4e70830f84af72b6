import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startTestTable, type TestTable } from './support/dynamodb-table';
import { SHARED_DYNAMODB_ENV } from './support/shared-dynamodb';

/**
 * The integration run's one DynamoDB Local (jest globalSetup): every test table is its own table in
 * it, invisible to the others, and gone when its owner stops.
 */

async function tableNames(): Promise<string[]> {
  const client = new DynamoDBClient({ endpoint: process.env[SHARED_DYNAMODB_ENV], region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    return (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  } finally {
    client.destroy();
  }
}

describe('the shared DynamoDB Local of the integration run', () => {
  let a: TestTable | undefined;
  let b: TestTable | undefined;
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  test('is started for the run, and two test tables in it keep their items apart', async () => {
    expect(process.env[SHARED_DYNAMODB_ENV]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    a = await startTestTable();
    b = await startTestTable();
    expect(a.db.tableName).not.toBe(b.db.tableName);
    await a.db.doc.send(new PutCommand({ TableName: a.db.tableName, Item: { pk: 'same', sk: 'key', owner: 'a' } }));
    await b.db.doc.send(new PutCommand({ TableName: b.db.tableName, Item: { pk: 'same', sk: 'key', owner: 'b' } }));
    const read = async (t: TestTable) => (await t.db.doc.send(new GetCommand({ TableName: t.db.tableName, Key: { pk: 'same', sk: 'key' }, ConsistentRead: true }))).Item?.owner;
    expect([await read(a), await read(b)]).toEqual(['a', 'b']);
  });

  test("a stopped test table's table is deleted, the emulator keeps serving the others", async () => {
    const name = a!.db.tableName;
    expect(await tableNames()).toContain(name);
    await a!.stop();
    a = undefined;
    const names = await tableNames();
    expect(names).not.toContain(name);
    expect(names).toContain(b!.db.tableName);
  });
});
