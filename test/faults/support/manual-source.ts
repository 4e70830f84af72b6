import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { runAs } from '../../../local/iam/enforce';
import { lambdaContext } from '../../../local/lambda-context';
import type { QueueName } from '../../../shared/platform/core/queues';
import { workers, type WorkerName } from '../../../shared/platform/core/routes';
import { depth, workerHandlers } from './pump';

type SqsLambda = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** An SQS message as the Lambda event source hands it to a worker. */
export function toRecord(message: Message, queue: QueueName): SQSRecord {
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: (message.Attributes ?? { ApproximateReceiveCount: '1' }) as unknown as SQSRecord['attributes'],
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queue}`,
    awsRegion: 'us-east-1',
  };
}

/**
 * The event source played by hand: the crash enumeration takes a message off its queue, runs its
 * worker under a crash plan, delivers it again itself, and lets `settle` run everything else.
 */
export class ManualSource {
  private constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrls: Record<QueueName, string>,
    readonly handlers: Record<WorkerName, SqsLambda>,
  ) {}

  static async create(sqs: SQSClient, queueUrls: Record<QueueName, string>): Promise<ManualSource> {
    return new ManualSource(sqs, queueUrls, await workerHandlers());
  }

  /** Runs one worker over `records`, as its role (local IAM checks its calls, as the event source's would be); the failed records' ids. */
  async invoke(worker: WorkerName, records: SQSRecord[]): Promise<string[]> {
    const result = await runAs(worker, () => this.handlers[worker]({ Records: records }, lambdaContext(`faults-${worker}`)));
    return (result?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
  }

  /** Takes messages matching `match` off `queue` (deleted: the caller delivers them now), waiting up to `timeoutMs` for `count`. */
  async take(queue: QueueName, count: number, match: (body: Record<string, any>) => boolean = () => true, timeoutMs = 10_000): Promise<SQSRecord[]> {
    const taken: SQSRecord[] = [];
    const deadline = Date.now() + timeoutMs;
    while (taken.length < count) {
      if (Date.now() > deadline) throw new Error(`Only ${taken.length} of ${count} messages on ${queue}`);
      const out = await this.sqs.send(new ReceiveMessageCommand({ QueueUrl: this.queueUrls[queue], MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageSystemAttributeNames: ['All'] }));
      for (const message of out.Messages ?? []) {
        if (match(JSON.parse(message.Body ?? '{}'))) {
          taken.push(toRecord(message, queue));
          await this.sqs.send(new DeleteMessageCommand({ QueueUrl: this.queueUrls[queue], ReceiptHandle: message.ReceiptHandle }));
        } else {
          await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrls[queue], ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: 0 }));
        }
      }
    }
    return taken;
  }

  /**
   * Takes every message matching `match` that is on `queue` now (deleted), without waiting for more:
   * what the workers that already returned published. The others go back, visible at once.
   */
  async drain(queue: QueueName, match: (body: Record<string, any>) => boolean): Promise<Record<string, any>[]> {
    const taken: Record<string, any>[] = [];
    const others: string[] = [];
    for (;;) {
      const out = await this.sqs.send(new ReceiveMessageCommand({ QueueUrl: this.queueUrls[queue], MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 30 }));
      if (!out.Messages?.length) break;
      for (const message of out.Messages) {
        const body = JSON.parse(message.Body ?? '{}');
        if (!match(body)) others.push(message.ReceiptHandle ?? '');
        else {
          taken.push(body);
          await this.sqs.send(new DeleteMessageCommand({ QueueUrl: this.queueUrls[queue], ReceiptHandle: message.ReceiptHandle }));
        }
      }
    }
    for (const handle of others) await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: this.queueUrls[queue], ReceiptHandle: handle, VisibilityTimeout: 0 }));
    return taken;
  }

  /**
   * Runs every worker over its queue until all queues have stayed empty for a second (the SES
   * emulator publishes its events a moment after each send). A failed record is visible again at
   * once, except a webhook's, which keeps the backoff its worker set. Throws after `timeoutMs`.
   */
  async settle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let idleSince: number | undefined;
    for (;;) {
      let busy = false;
      for (const [name, def] of Object.entries(workers) as [WorkerName, (typeof workers)[WorkerName]][]) {
        const url = this.queueUrls[def.queue];
        const out = await this.sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageSystemAttributeNames: ['All'] }));
        const messages = out.Messages ?? [];
        if (messages.length === 0) continue;
        busy = true;
        const failed = new Set(await this.invoke(name, messages.map((m) => toRecord(m, def.queue))));
        for (const message of messages) {
          if (!failed.has(message.MessageId ?? '')) await this.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle }));
          else if (def.queue !== 'webhooks') await this.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: 0 }));
        }
      }
      // Messages hidden by a backoff, or delayed, are not done yet.
      const waiting = busy ? 1 : (await Promise.all(Object.values(this.queueUrls).map((url) => depth(this.sqs, url)))).reduce((a, b) => a + b, 0);
      if (waiting > 0) idleSince = undefined;
      else idleSince ??= Date.now();
      if (idleSince !== undefined && Date.now() - idleSince > 1_000) return;
      if (Date.now() > deadline) throw new Error('The queues did not settle');
      if (!busy) await new Promise((r) => setTimeout(r, 200));
    }
  }
}
