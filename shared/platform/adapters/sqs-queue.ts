import { ChangeMessageVisibilityCommand, SQSClient, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { queueUrlKey, type Config } from '../core/config';
import type { QueueName } from '../core/queues';
import type { Queue } from '../core/ports';

/** Queue port over SQS; queue URLs come from the configuration variables named in shared/platform/core/queues.ts. */
export class SqsQueue implements Queue {
  private readonly url: (queue: QueueName) => string;

  constructor(
    private readonly client: SQSClient,
    urls: Readonly<Record<QueueName, string>> | ((queue: QueueName) => string),
  ) {
    this.url = typeof urls === 'function' ? urls : (queue) => urls[queue];
  }

  /**
   * Reads each queue's URL from the configuration when the queue is first used: a function is given
   * only the URLs of the queues it uses (lib/access.ts).
   */
  static fromConfig(client: SQSClient, cfg: Config): SqsQueue {
    return new SqsQueue(client, (queue) => cfg[queueUrlKey(queue)] as string);
  }

  async send(queue: QueueName, body: unknown, options: { delaySeconds?: number } = {}): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.url(queue),
        MessageBody: JSON.stringify(body),
        DelaySeconds: options.delaySeconds,
      }),
    );
  }

  async sendBatch(queue: QueueName, bodies: unknown[], options: { delaySeconds?: readonly number[] } = {}): Promise<void> {
    const messages = bodies.map((b, i) => ({ body: JSON.stringify(b), delay: options.delaySeconds?.[i] }));
    for (const batch of batchesOf(messages.map((m) => m.body), messages)) {
      let entries = batch.map((m, n) => ({ Id: String(n), MessageBody: m.body, DelaySeconds: m.delay }));
      // A batch can partly fail (throttling): send the failed entries again, a few times.
      for (let round = 0; entries.length > 0; round++) {
        const out = await this.client.send(new SendMessageBatchCommand({ QueueUrl: this.url(queue), Entries: entries }));
        const failed = new Set((out.Failed ?? []).map((f) => f.Id));
        entries = entries.filter((e) => failed.has(e.Id));
        if (entries.length > 0 && round >= 3) throw new Error(`${entries.length} messages could not be queued on ${queue}`);
      }
    }
  }

  async changeVisibility(queue: QueueName, receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.url(queue), ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
  }
}

/** A batch holds at most ten messages and, to stay within SQS's classic 256 KiB, about 250 KB. */
const BATCH_BYTES = 250_000;

/**
 * Splits message bodies into batches within both limits (a single larger body goes alone); with
 * `items`, batches of the items that go with the bodies, index for index.
 */
export function batchesOf<T = string>(bodies: string[], items: readonly T[] = bodies as unknown as T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  bodies.forEach((body, i) => {
    const size = Buffer.byteLength(body);
    if (current.length > 0 && (current.length === 10 || bytes + size > BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(items[i]);
    bytes += size;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}
