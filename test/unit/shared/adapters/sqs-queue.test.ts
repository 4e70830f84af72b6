import { batchesOf } from '../../../../shared/platform/adapters/sqs-queue';

describe('SendMessageBatch splitting', () => {
  test('at most ten messages per batch', () => {
    expect(batchesOf(Array.from({ length: 23 }, (_, i) => `m${i}`)).map((b) => b.length)).toEqual([10, 10, 3]);
  });
  test('at most about 250 KB per batch, so one large inbound reply travels with few others', () => {
    const big = 'x'.repeat(150_000);
    expect(batchesOf([big, 'a', big, 'b']).map((b) => b.length)).toEqual([2, 2]);
  });
  test('a single body over the budget still goes, alone', () => {
    expect(batchesOf(['y'.repeat(300_000), 'z']).map((b) => b.length)).toEqual([1, 1]);
  });
});

describe('SqsQueue.sendBatch', () => {
  test('gives each entry its own delay, ten entries to a request', async () => {
    const { SQSClient, SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
    const { mockClient } = await import('aws-sdk-client-mock');
    const { SqsQueue } = await import('../../../../shared/platform/adapters/sqs-queue');
    const sqs = mockClient(SQSClient);
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const urls = { send: 's', events: 'e', webhooks: 'w', 'ses-events': 'x', scheduled: 'https://sqs.local/scheduled', audience: 'a', fanout: 'f', 'batch-send': 'b', imports: 'i', campaigns: 'c', automations: 'au', exports: 'x2' };
    const queue = new SqsQueue(new SQSClient({ region: 'us-east-1' }), urls);
    const bodies = Array.from({ length: 12 }, (_, i) => ({ n: i }));
    await queue.sendBatch('scheduled', bodies, { delaySeconds: bodies.map((_, i) => i * 10) });
    const calls = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(calls.map((c) => c.Entries?.length)).toEqual([10, 2]);
    expect(calls[0].QueueUrl).toBe('https://sqs.local/scheduled');
    expect(calls[1].Entries?.map((e) => [e.MessageBody, e.DelaySeconds])).toEqual([
      ['{"n":10}', 100],
      ['{"n":11}', 110],
    ]);
    sqs.restore();
  });
});
