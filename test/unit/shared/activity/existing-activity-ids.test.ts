import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { existingActivities } from '../../../../shared/mail-pipeline/activity/activity-repository';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';

/** The check a redelivered fan-out chunk makes before writing its records again (issue 16). */
const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };

describe('which records of a redelivered chunk exist', () => {
  test('are read strongly consistent, so a record just sent is never written back as queued', async () => {
    doc.on(BatchGetCommand).resolves({ Responses: { mailroom: [{ id: 'a-1', current_status: 'sent', created_at: '2026-11-26T10:00:00.000Z' }] } });
    const found = await existingActivities(db, ['a-1', 'a-2']);
    expect(found).toEqual(new Map([['a-1', { current_status: 'sent', created_at: '2026-11-26T10:00:00.000Z' }]]));
    const request = doc.commandCalls(BatchGetCommand)[0].args[0].input;
    expect(request.RequestItems?.mailroom.ConsistentRead).toBe(true);
  });
});
