import { CreateQueueCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startSqs } from '../../local/emulators/sqs';
import type { RunningEmulator } from '../../local/emulators/dynamodb';

/**
 * The local SQS's fixes to local-aws-sqs (local/emulators/sqs.ts) that change what a worker sees.
 * The in-flight limit is shown on a FIFO queue, whose limit (20,000) is small enough to fill here;
 * a standard queue's (120,000) is the same code.
 */

let sqs: RunningEmulator;
let client: SQSClient;

beforeAll(async () => {
  sqs = await startSqs({ port: 0 });
  client = new SQSClient({ endpoint: sqs.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}, 30_000);

afterAll(async () => {
  client?.destroy();
  await sqs?.stop();
});

describe('local SQS in-flight limit', () => {
  test('a queue holding more messages than the in-flight limit still answers receives', async () => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'deep.fifo', Attributes: { FifoQueue: 'true', ContentBasedDeduplication: 'true' } }));
    const LIMIT = 20_000;
    // 2,001 batches, four in flight at a time: the fill is most of this test's time.
    const starts = Array.from({ length: (LIMIT + 10) / 10 }, (_, k) => k * 10);
    const fill = async () => {
      for (let i = starts.shift(); i !== undefined; i = starts.shift()) {
        const Entries = Array.from({ length: 10 }, (_, j) => ({ Id: String(j), MessageBody: String(i + j), MessageGroupId: String((i + j) % 50) }));
        await client.send(new SendMessageBatchCommand({ QueueUrl, Entries }));
      }
    };
    await Promise.all([fill(), fill(), fill(), fill()]);
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    expect(out.Messages?.length ?? 0).toBeGreaterThan(0);
    const deleted = await client.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: out.Messages!.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
    expect(deleted.Failed ?? []).toEqual([]);
    // Room for a loaded machine: the serial fill alone took 120 s with 10-15 other jobs running.
  }, 300_000);
});

describe('local SQS long polling', () => {
  test('a long poll answers as soon as a message arrives, not when its wait or its batch is full', async () => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'long-poll' }));
    const started = Date.now();
    const receive = client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 }));
    await new Promise((r) => setTimeout(r, 200));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: 'lone' }));
    const out = await receive;
    expect(out.Messages?.map((m) => m.Body)).toEqual(['lone']);
    // Well before the 5 s wait ends, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  test('a queue that already holds messages answers one long poll with up to the maximum', async () => {
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: 'full-batch' }));
    await client.send(new SendMessageBatchCommand({ QueueUrl, Entries: Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: String(i) })) }));
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 5 }));
    expect(out.Messages).toHaveLength(10);
  });
});
