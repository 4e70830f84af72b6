import { CreateQueueCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startSqs } from '../../local/emulators/sqs';
import type { RunningEmulator } from '../../local/emulators/dynamodb';
import { freePort } from '../../local/free-port';

/**
 * The local SQS's fixes to local-aws-sqs (local/emulators/sqs.ts) that change what a worker sees.
 * The in-flight limit is shown on a FIFO queue, whose limit (20,000) is small enough to fill here;
 * a standard queue's (120,000) is the same code.
 */

let sqs: RunningEmulator;
let client: SQSClient;

beforeAll(async () => {
  sqs = await startSqs({ port: await freePort() });
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
    for (let i = 0; i < LIMIT + 10; i += 10) {
      const Entries = Array.from({ length: 10 }, (_, j) => ({ Id: String(j), MessageBody: String(i + j), MessageGroupId: String((i + j) % 50) }));
      await client.send(new SendMessageBatchCommand({ QueueUrl, Entries }));
    }
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    expect(out.Messages?.length ?? 0).toBeGreaterThan(0);
    const deleted = await client.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: out.Messages!.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
    expect(deleted.Failed ?? []).toEqual([]);
  }, 120_000);
});
