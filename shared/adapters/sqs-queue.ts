import { ChangeMessageVisibilityCommand, SQSClient, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { queues, type QueueName } from '../queues';
import type { Queue } from '../ports';

/** Queue port over SQS; queue URLs come from the environment variables named in shared/queues.ts. */
export class SqsQueue implements Queue {
  constructor(
    private readonly client: SQSClient,
    private readonly urls: Readonly<Record<QueueName, string>>,
  ) {}

  /** Reads every queue URL from the environment. */
  static fromEnv(client: SQSClient, env: NodeJS.ProcessEnv = process.env): SqsQueue {
    const urls = Object.fromEntries(
      Object.entries(queues).map(([name, def]) => {
        const url = env[def.urlEnv];
        if (!url) throw new Error(`Missing environment variable ${def.urlEnv}`);
        return [name, url];
      }),
    ) as Record<QueueName, string>;
    return new SqsQueue(client, urls);
  }

  async send(queue: QueueName, body: unknown, options: { delaySeconds?: number } = {}): Promise<void> {
    await this.client.send(
      new SendMessageCommand({
        QueueUrl: this.urls[queue],
        MessageBody: JSON.stringify(body),
        DelaySeconds: options.delaySeconds,
      }),
    );
  }

  async sendBatch(queue: QueueName, bodies: unknown[]): Promise<void> {
    for (let i = 0; i < bodies.length; i += 10) {
      let entries = bodies.slice(i, i + 10).map((body, n) => ({ Id: String(n), MessageBody: JSON.stringify(body) }));
      // A batch can partly fail (throttling): send the failed entries again, a few times.
      for (let round = 0; entries.length > 0; round++) {
        const out = await this.client.send(new SendMessageBatchCommand({ QueueUrl: this.urls[queue], Entries: entries }));
        const failed = new Set((out.Failed ?? []).map((f) => f.Id));
        entries = entries.filter((e) => failed.has(e.Id));
        if (entries.length > 0 && round >= 3) throw new Error(`${entries.length} messages could not be queued on ${queue}`);
      }
    }
  }

  async changeVisibility(queue: QueueName, receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.urls[queue], ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
  }
}
