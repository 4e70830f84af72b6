import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { logger } from '../../../../shared/platform/core/logger';
import { COUNTER_RETENTION_DAYS, flushCounters } from '../../../../shared/identities/stats/counter-flush';
import { CounterBatch } from '../../../../shared/identities/stats/domain-stats';
import { createDocumentClient, type Db } from '../../../../shared/platform/store/client';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => {
  doc.reset();
  jest.restoreAllMocks();
});
afterAll(() => doc.restore());

const db: Db = { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' };
const NOW = new Date('2025-03-01T12:00:00.000Z');
const clock = { now: () => NOW };

function batchOfOne(): CounterBatch {
  const counters = new CounterBatch();
  counters.add('p-1', 'acme.example', '2025-03-01', 'sent');
  return counters;
}

describe('flushCounters', () => {
  test('writes the counters to expire after the retention of 400 days', async () => {
    doc.on(UpdateCommand).resolves({});
    await flushCounters({ db, clock }, batchOfOne());
    const input = doc.commandCalls(UpdateCommand)[0].args[0].input;
    expect(COUNTER_RETENTION_DAYS).toBe(400);
    expect(input.ExpressionAttributeValues?.[':ttl']).toBe(NOW.getTime() / 1000 + 400 * 86_400);
  });

  test('a failed write is logged, not thrown: the work around it has already happened', async () => {
    const errorLog = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const failure = new Error('throttled');
    doc.on(UpdateCommand).rejects(failure);
    await expect(flushCounters({ db, clock }, batchOfOne())).resolves.toBeUndefined();
    expect(errorLog).toHaveBeenCalledWith('Counter flush failed', { error: failure });
  });
});
