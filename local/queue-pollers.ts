import { createHash } from 'node:crypto';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { runAs } from './iam/enforce';
import { lambdaContext } from './lambda-context';

type SqsLambda = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** A worker attached to a queue, as the Lambda event source mapping would attach it. */
export interface PollerSpec {
  readonly name: string;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly batchSize: number;
  readonly handler: SqsLambda;
}

/**
 * The local SQS event source: long-polls each queue, calls the worker with an SQS event, and
 * deletes the records the worker did not report as failures (partial batch responses). Failed
 * records come back after the queue's visibility timeout, and go to the DLQ by its redrive policy.
 */
export function startQueuePollers(client: SQSClient, specs: PollerSpec[], onError: (e: unknown) => void = console.error) {
  let running = true;
  // Stopping cuts the long polls short: each would otherwise hold the stop for up to its wait.
  const polls = specs.map(() => new AbortController());
  // Batches between their receive and their delete (a test waits for none before it asserts that nothing more happens).
  let inHand = 0;
  const loops = specs.map(async (spec, i) => {
    while (running) {
      let messages: Message[] = [];
      try {
        const out = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: spec.queueUrl,
            MaxNumberOfMessages: spec.batchSize,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: polls[i].signal },
        );
        messages = out.Messages ?? [];
      } catch (error) {
        if (!running) break;
        onError(error);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (messages.length === 0) continue;
      inHand++;
      try {
        await handle(spec, messages);
      } finally {
        inHand--;
      }
    }
  });

  /** Runs the worker on one received batch and deletes the records it did not report as failures. */
  async function handle(spec: PollerSpec, messages: Message[]): Promise<void> {
    const event: SQSEvent = {
      Records: messages.map((m) => ({
        messageId: m.MessageId ?? '',
        receiptHandle: m.ReceiptHandle ?? '',
        body: m.Body ?? '',
        attributes: m.Attributes as unknown as SQSEvent['Records'][number]['attributes'],
        messageAttributes: {},
        md5OfBody: m.MD5OfBody ?? createHash('md5').update(m.Body ?? '').digest('hex'),
        eventSource: 'aws:sqs',
        eventSourceARN: spec.queueArn,
        awsRegion: 'us-east-1',
      })),
    };
    let failed = new Set<string>();
    try {
      const result = await runAs(spec.name, () => spec.handler(event, lambdaContext(`local-${spec.name}`)));
      failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      // A thrown error fails the whole batch, as in Lambda.
      onError(error);
      return;
    }
    const done = messages.filter((m) => !failed.has(m.MessageId ?? ''));
    if (done.length > 0) {
      await client
        .send(new DeleteMessageBatchCommand({ QueueUrl: spec.queueUrl, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }))
        .catch(onError);
    }
  }
  return {
    /** Whether a worker holds a batch (from its receive to its delete). */
    busy: () => inHand > 0,
    /** Stops polling and waits for the batches in flight. */
    stop: async () => {
      running = false;
      for (const poll of polls) poll.abort();
      await Promise.all(loops);
    },
  };
}
