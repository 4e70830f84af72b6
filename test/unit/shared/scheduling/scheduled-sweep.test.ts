import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { Queue } from '../../../../shared/platform/core/ports';
import { sweepScheduledSends } from '../../../../shared/mail-pipeline/scheduling/scheduled-sweep';
import { createDocumentClient } from '../../../../shared/platform/store/client';
import { scheduledDueIndex } from '../../../../shared/platform/store/keys';

const doc = mockClient(DynamoDBDocumentClient);
afterEach(() => doc.reset());
afterAll(() => doc.restore());

const NOW = new Date('2030-01-01T09:00:00.000Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();
const id = (n: number) => `0b6f3c2e-8d1a-4c3e-9f00-${String(n).padStart(12, '0')}`;

function fakeQueue(failing = false) {
  const single: { queue: string; body: unknown; delaySeconds?: number }[] = [];
  const batches: { queue: string; bodies: unknown[]; delaySeconds?: readonly number[] }[] = [];
  const queue: Queue = {
    send: async (name, body, options) => {
      if (failing) throw new Error('SQS down');
      single.push({ queue: name, body, delaySeconds: options?.delaySeconds });
    },
    sendBatch: async (name, bodies, options) => {
      if (failing) throw new Error('SQS down');
      batches.push({ queue: name, bodies, delaySeconds: options?.delaySeconds });
    },
    changeVisibility: async () => undefined,
  };
  return { queue, single, batches };
}

const deps = (queue: Queue) => ({
  db: { doc: createDocumentClient(new DynamoDBClient({ region: 'us-east-1' })), tableName: 'mailroom' },
  queue,
  clock: { now: () => NOW },
});

describe('the minute sweep', () => {
  test('looks 75 s ahead and queues every due send in batches, each delayed until its time (overdue ones undelayed)', async () => {
    const entries = [scheduledDueIndex(at(-3600), id(1)), scheduledDueIndex(at(0), id(2)), scheduledDueIndex(at(12.3), id(3)), scheduledDueIndex(at(75), id(4))];
    // Each shard of the due index answers with its own entries.
    doc.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => ({
      Items: entries.filter((e) => e.gsi5pk === input.ExpressionAttributeValues[':pk']),
    }));
    const { queue, single, batches } = fakeQueue();
    await expect(sweepScheduledSends(deps(queue))).resolves.toEqual({ due: 4, overdue: 2 });
    expect(doc.commandCalls(QueryCommand)[0].args[0].input.ExpressionAttributeValues?.[':bound']).toBe(new Date(NOW.getTime() + 75_001).toISOString());
    expect(batches).toEqual([
      {
        queue: 'scheduled',
        bodies: [
          { v: 1, id: id(1), scheduled_for: at(-3600) },
          { v: 1, id: id(2), scheduled_for: at(0) },
          { v: 1, id: id(3), scheduled_for: at(12.3) },
          { v: 1, id: id(4), scheduled_for: at(75) },
        ],
        delaySeconds: [0, 0, 13, 75],
      },
    ]);
    expect(single).toEqual([]);
  });

  test('with nothing due it queues nothing', async () => {
    doc.on(QueryCommand).resolves({ Items: [] });
    const { queue, single, batches } = fakeQueue();
    await expect(sweepScheduledSends(deps(queue))).resolves.toEqual({ due: 0, overdue: 0 });
    expect([single, batches]).toEqual([[], []]);
  });

  test('a failed enqueue fails the run, so that it is logged and the scheduler retries it', async () => {
    const entries = [scheduledDueIndex(at(10), id(1)), scheduledDueIndex(at(20), id(2))];
    doc.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => ({
      Items: entries.filter((e) => e.gsi5pk === input.ExpressionAttributeValues[':pk']),
    }));
    const { queue } = fakeQueue(true);
    await expect(sweepScheduledSends(deps(queue))).rejects.toThrow('SQS down');
  });
});
