import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { ScheduledSend } from '../../../../shared/mail-pipeline/scheduling/scheduled-send';
import {
  cancelPendingScheduledSend,
  decodeContent,
  encodeContent,
  getScheduledSend,
  moveScheduledSend,
  putScheduledSend,
  queryDueScheduledSends,
} from '../../../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import {
  SCHEDULED_DUE_SHARDS,
  parseScheduledDueSortKey,
  scheduledDuePartitions,
  scheduledDueIndex,
  scheduledListIndex,
  scheduledPendingIndex,
  scheduledSendKey,
} from '../../../../shared/platform/store/keys';

/**
 * The requests the scheduled-send store sends and how it reads the answers. What its conditions let
 * through, and what the due index shows afterwards, is tested against DynamoDB Local in
 * test/integration/scheduled-send-repository.test.ts.
 */
const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const ID = '0b6f3c2e-8d1a-4c3e-9f00-000000000001';
const DUE = '2030-01-01T09:00:00.000Z';
const send: ScheduledSend = {
  id: ID,
  project_id: 'p-1',
  mode: 'live',
  status: 'pending',
  scheduled_for: DUE,
  timezone: 'UTC',
  recipient_email: 'reader@example.com',
  sender_email: 'hello@example.com',
  content: { recipient: 'reader@example.com', sender: 'hello@example.com', templateId: 't-1', emailType: 'transactional', customHeaders: {}, references: [] },
  email_id: '0b6f3c2e-8d1a-4c3e-9f00-0000000000e1',
  created_at: '2029-12-31T09:00:00.000Z',
  updated_at: '2029-12-31T09:00:00.000Z',
  version: 1,
};
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('putScheduledSend', () => {
  test('writes the send under its key with its due-index and project-list entries and expiry', async () => {
    doc.on(PutCommand).resolves({});
    await putScheduledSend(db, send, 1234);
    const input = doc.commandCalls(PutCommand)[0].args[0].input;
    expect(input.Item).toEqual({
      ...scheduledSendKey(ID),
      ...send,
      content: expect.any(Uint8Array),
      ...scheduledDueIndex(DUE, ID),
      ...scheduledListIndex(send),
      ...scheduledPendingIndex(send),
      ttl: 1234,
    });
  });

  test('stores the content gzipped (smaller items, cheaper updates), and reads it back as it was', async () => {
    const html = `<html><body>${'<p>Hello {{name}}, here is your weekly digest.</p>'.repeat(200)}</body></html>`;
    const big: ScheduledSend = { ...send, content: { ...send.content, html } };
    doc.on(PutCommand).resolves({});
    await putScheduledSend(db, big, 1);
    const item = doc.commandCalls(PutCommand)[0].args[0].input.Item!;
    expect((item.content as Uint8Array).byteLength).toBeLessThan(html.length / 10);
    expect(decodeContent(item.content as Uint8Array)).toEqual(big.content);

    doc.on(GetCommand).resolves({ Item: item });
    await expect(getScheduledSend(db, ID, true)).resolves.toEqual(big);
    expect(doc.commandCalls(GetCommand)[0].args[0].input).toMatchObject({ Key: scheduledSendKey(ID), ConsistentRead: true });
  });
});

describe('moveScheduledSend and cancelPendingScheduledSend', () => {
  test('moving rewrites the time and the due-index sort key through attribute names', async () => {
    const moved = { ...send, scheduled_for: '2030-02-01T00:00:00.000Z' };
    doc.on(UpdateCommand).resolves({ Attributes: { ...scheduledSendKey(ID), ...moved, content: encodeContent(send.content), ...scheduledDueIndex(moved.scheduled_for, ID), ttl: 99 } });
    const result = await moveScheduledSend(db, { id: ID, projectId: 'p-1', scheduledFor: '2030-02-01T00:00:00.000Z', timezone: 'UTC', now: DUE, ttl: 99 });
    const input = doc.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.Key).toEqual(scheduledSendKey(ID));
    expect(input.ExpressionAttributeValues).toMatchObject({ ':dsk': scheduledDueIndex('2030-02-01T00:00:00.000Z', ID).gsi5sk, ':p': 'p-1', ':ttl': 99 });
    // `timezone`, `status` and `ttl` are reserved words: they must go through names.
    expect(input.ExpressionAttributeNames).toMatchObject({ '#tz': 'timezone', '#s': 'status', '#ttl': 'ttl' });
    expect(input.UpdateExpression).not.toMatch(/(^|[\s,])(timezone|status|ttl)\s*=/);
    expect(input.ReturnValues).toBe('ALL_NEW');
    expect(result).toEqual({ changed: true, send: moved });
  });

  test('a send that is no longer pending is reported, not thrown', async () => {
    doc.on(UpdateCommand).rejects(conditionFailed());
    await expect(cancelPendingScheduledSend(db, ID, 'p-1', DUE)).resolves.toBe(false);
    await expect(moveScheduledSend(db, { id: ID, projectId: 'p-1', scheduledFor: DUE, timezone: 'UTC', now: DUE, ttl: 1 })).resolves.toEqual({ changed: false });
  });

  test('other errors are thrown', async () => {
    doc.on(UpdateCommand).rejects(new Error('throttled'));
    await expect(cancelPendingScheduledSend(db, ID, 'p-1', DUE)).rejects.toThrow('throttled');
  });
});

describe('queryDueScheduledSends', () => {
  test('queries every shard of the due index up to and including `until`, through every page, oldest first', async () => {
    const second = '1b6f3c2e-8d1a-4c3e-9f00-000000000002';
    const later = scheduledDueIndex('2030-01-01T09:01:00.000Z', second);
    const earlier = scheduledDueIndex(DUE, ID);
    // The later send's shard answers in two pages; the earlier one's in one; the others are empty.
    doc.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string>; ExclusiveStartKey?: unknown }) => {
      const pk = input.ExpressionAttributeValues[':pk'];
      if (pk === later.gsi5pk && !input.ExclusiveStartKey) return { Items: [], LastEvaluatedKey: { pk: 'x' } };
      if (pk === later.gsi5pk) return { Items: [later] };
      if (pk === earlier.gsi5pk) return { Items: [earlier] };
      return { Items: [] };
    });
    const due = await queryDueScheduledSends(db, new Date('2030-01-01T09:01:00.000Z'));
    expect(due).toEqual([
      { id: ID, scheduledFor: DUE },
      { id: second, scheduledFor: '2030-01-01T09:01:00.000Z' },
    ]);
    const calls = doc.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(calls.map((c) => c.ExpressionAttributeValues?.[':pk']).sort()).toEqual([...scheduledDuePartitions(), later.gsi5pk].sort());
    expect(calls).toHaveLength(SCHEDULED_DUE_SHARDS + 1);
    expect(calls[0]).toMatchObject({
      IndexName: 'gsi5',
      KeyConditionExpression: 'gsi5pk = :pk AND gsi5sk < :bound',
      ExpressionAttributeValues: { ':bound': '2030-01-01T09:01:00.001Z' },
    });
    // The bound sorts after every send due exactly at `until`.
    expect(later.gsi5sk < '2030-01-01T09:01:00.001Z').toBe(true);
  });
});

describe('parseScheduledDueSortKey', () => {
  test('reads back what scheduledDueIndex wrote', () => {
    expect(parseScheduledDueSortKey(scheduledDueIndex(DUE, ID).gsi5sk)).toEqual({ id: ID, scheduledFor: DUE });
  });

  test.each(['', 'no-separator', 'not-a-time#abc'])('ignores %j', (key) => {
    expect(parseScheduledDueSortKey(key)).toBeUndefined();
  });
});
