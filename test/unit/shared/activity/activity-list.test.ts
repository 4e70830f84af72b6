import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { listActivity } from '../../../../shared/mail-pipeline/activity/activity-list';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { activityKey } from '../../../../shared/platform/store/keys';
import { serveBatchGetThrottled } from '../../support/throttled-table';

const doc = mockClient(DynamoDBDocumentClient);
beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0)); // no backoff wait in these tests
afterEach(() => {
  doc.reset();
  jest.restoreAllMocks();
});
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const ids = ['a-3', 'a-2', 'a-1'];
const records = ids.map((id) => ({ ...activityKey(id), id, project_id: 'p-1', current_status: 'sent' }));

/** The project's list index, newest first, holding the three activities in its first shard (the others are empty). */
function listIndex() {
  doc.on(QueryCommand).callsFake((input) => {
    const held = String(input.ExpressionAttributeValues?.[':pk']).endsWith('#0') ? ids : [];
    return input.Select === 'COUNT' ? { Count: held.length } : { Items: held.map((id) => activityKey(id)) };
  });
}

describe('GET /v1/activity under throttling', () => {
  test('records DynamoDB hands back unprocessed are still listed, newest first', async () => {
    listIndex();
    serveBatchGetThrottled(doc, 'mailroom', records, { times: 2, deferred: 2 });
    const { data, total } = await listActivity(db, 'p-1', {}, { page: 1, perPage: 10 });
    expect(total).toBe(3);
    expect(data.map((a) => a.id)).toEqual(ids);
  });

  test('records that stay unprocessed fail the request rather than shortening the page', async () => {
    listIndex();
    serveBatchGetThrottled(doc, 'mailroom', records, { times: Infinity, deferred: 1 });
    await expect(listActivity(db, 'p-1', {}, { page: 1, perPage: 10 })).rejects.toThrow('unprocessed');
  });
});
