import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { suppressionKey } from '../../../../shared/platform/store/keys';
import { findSuppressed, type SuppressionEntry } from '../../../../shared/mail-pipeline/suppression/suppression-repository';
import { serveBatchGetThrottled } from '../../support/throttled-table';

const doc = mockClient(DynamoDBDocumentClient);
beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0)); // no backoff wait in these tests
afterEach(() => {
  doc.reset();
  jest.restoreAllMocks();
});
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const entry = (email: string): SuppressionEntry => ({ project_id: 'p-1', email, reason: 'bounce', source: 'ses', suppressed_at: '2025-03-01T12:00:00.000Z' });
const stored = ['a@x.test', 'b@x.test', 'c@x.test'].map((email) => ({ ...suppressionKey('p-1', email), ...entry(email) }));

describe('findSuppressed under throttling', () => {
  test('addresses DynamoDB hands back unprocessed are still found', async () => {
    serveBatchGetThrottled(doc, 'mailroom', stored, { times: 2, deferred: 2 });
    const found = await findSuppressed(db, 'p-1', ['A@x.test', 'b@x.test', 'c@x.test', 'free@x.test']);
    expect([...found.keys()].sort()).toEqual(['a@x.test', 'b@x.test', 'c@x.test']);
    expect(found.get('a@x.test')).toEqual(entry('a@x.test'));
  });

  test('addresses that stay unprocessed fail the lookup: a send never goes out unchecked', async () => {
    serveBatchGetThrottled(doc, 'mailroom', stored, { times: Infinity, deferred: 1 });
    await expect(findSuppressed(db, 'p-1', ['a@x.test', 'b@x.test'])).rejects.toThrow('unprocessed');
  });
});
