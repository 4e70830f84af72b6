import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
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
}
