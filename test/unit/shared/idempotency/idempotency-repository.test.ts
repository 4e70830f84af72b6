import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  recordFromItem,
  releaseIdempotencyKey,
  type IdempotencyClaim,
} from '../../../../shared/platform/idempotency/idempotency-repository';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';
import { idempotencyKey } from '../../../../shared/platform/store/keys';

/**
 * The requests the idempotency repository sends and how it reads DynamoDB's answers. What the
 * conditional writes let through and refuse is tested against DynamoDB Local, in
 * test/integration/idempotency-repository.test.ts.
 */
const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const claim: IdempotencyClaim = { projectId: 'p-1', keyHash: 'a'.repeat(64), token: 'tok-1' };
const NOW = new Date('2025-03-01T12:00:00.000Z');
const NOW_S = NOW.getTime() / 1000;

const conditionFailed = (item?: Record<string, unknown>) =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: item as never });

describe('claimIdempotencyKey', () => {
  test('writes an in-progress record under the key of keys.ts, with a 60 s lease and a 24 h ttl in epoch seconds', async () => {
    doc.on(PutCommand).resolves({});
    await expect(claimIdempotencyKey(db, { claim, fingerprint: 'fp', now: NOW })).resolves.toEqual({ claimed: true });
    const input = doc.commandCalls(PutCommand)[0].args[0].input;
    expect(input.Item).toEqual({
      ...idempotencyKey('p-1', 'a'.repeat(64)),
      status: 'in_progress',
      fingerprint: 'fp',
      token: 'tok-1',
      lease_until: NOW_S + 60,
      created_at: NOW.toISOString(),
      ttl: NOW_S + 86_400,
    });
  });

  test('refused: returns the standing record from the failed write, with no read', async () => {
    const response = { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"email_id":"e-1"}' };
    doc.on(PutCommand).rejects(
      conditionFailed({
        pk: { S: 'IDEMP#p-1#aaa' },
        sk: { S: 'IDEMP' },
        status: { S: 'completed' },
        fingerprint: { S: 'fp' },
        token: { S: 'tok-0' },
        ttl: { N: String(NOW_S + 100) },
        response: { S: JSON.stringify(response) },
      }),
    );
    await expect(claimIdempotencyKey(db, { claim, fingerprint: 'fp', now: NOW })).resolves.toEqual({
      claimed: false,
      existing: { status: 'completed', fingerprint: 'fp', token: 'tok-0', lease_until: undefined, ttl: NOW_S + 100, response },
    });
  });

  test('other failures are not swallowed', async () => {
    doc.on(PutCommand).rejects(new Error('throttled'));
    await expect(claimIdempotencyKey(db, { claim, fingerprint: 'fp', now: NOW })).rejects.toThrow('throttled');
  });
});

describe('completeIdempotencyKey', () => {
  const response = { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"error":"Template not found"}' };

  test('stores the answer and marks the record completed, only while this request holds it', async () => {
    doc.on(UpdateCommand).resolves({});
    await expect(completeIdempotencyKey(db, { claim, response, now: NOW })).resolves.toBe(true);
    const input = doc.commandCalls(UpdateCommand)[0].args[0].input;
    expect(input.Key).toEqual(idempotencyKey('p-1', 'a'.repeat(64)));
    // The record's `complete` transition: from in_progress, held by this token, to completed with the answer.
    expect(input.ConditionExpression).toBe('#state IN (:from0) AND (#token = :token)');
    expect(input.ExpressionAttributeValues).toMatchObject({ ':from0': 'in_progress', ':token': 'tok-1' });
    // setFields names each SET field #f<n> and its value :v<n>.
    const setTo = (field: string) => {
      const name = Object.keys(input.ExpressionAttributeNames!).find((k) => k.startsWith('#f') && input.ExpressionAttributeNames![k] === field)!;
      return input.ExpressionAttributeValues![name.replace('#f', ':v')];
    };
    expect(setTo('status')).toBe('completed');
    expect(setTo('response')).toBe(JSON.stringify(response));
    expect(input.UpdateExpression).toMatch(/REMOVE #r0$/);
    expect(input.ExpressionAttributeNames!['#r0']).toBe('lease_until');
  });

  test('false when the claim was lost', async () => {
    doc.on(UpdateCommand).rejects(conditionFailed());
    await expect(completeIdempotencyKey(db, { claim, response, now: NOW })).resolves.toBe(false);
  });
});

describe('releaseIdempotencyKey', () => {
  test('deletes the record only while this request holds it', async () => {
    doc.on(DeleteCommand).resolves({});
    await releaseIdempotencyKey(db, claim);
    const input = doc.commandCalls(DeleteCommand)[0].args[0].input;
    expect(input.Key).toEqual(idempotencyKey('p-1', 'a'.repeat(64)));
    expect(input.ExpressionAttributeValues).toMatchObject({ ':token': 'tok-1' });
  });

  test('a record taken over by another request is left alone without an error', async () => {
    doc.on(DeleteCommand).rejects(conditionFailed());
    await expect(releaseIdempotencyKey(db, claim)).resolves.toBeUndefined();
  });
});

describe('recordFromItem', () => {
  test('reads plain items as the document client returns them', () => {
    expect(recordFromItem({ status: 'in_progress', fingerprint: 'fp', token: 't', lease_until: 5, ttl: 9 })).toEqual({
      status: 'in_progress',
      fingerprint: 'fp',
      token: 't',
      lease_until: 5,
      ttl: 9,
      response: undefined,
    });
  });
});
