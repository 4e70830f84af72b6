import path from 'node:path';
import { ChangeMessageVisibilityCommand, GetQueueAttributesCommand, GetQueueUrlCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { outsideAnyCaller } from '../../../local/iam/enforce';
import { startQueuePollers } from '../../../local/queue-pollers';
import { queues, type QueueName } from '../../../shared/platform/core/queues';
import { workers, type WorkerName } from '../../../shared/platform/core/routes';
import { FaultLog, withFaults, type FaultPlan } from './faults';

const ROOT = path.resolve(__dirname, '../../..');

type SqsLambda = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** How the suite's event source mistreats deliveries, on top of the plan each invocation runs under. */
export interface DeliveryFaults {
  /** The plan of every worker invocation (SES and DynamoDB faults, crashes). */
  readonly plan: () => FaultPlan;
  /** Share of batches handed to a second invocation at the same moment (concurrent duplicate delivery). */
  readonly concurrentDuplicateRate: number;
  /** Share of records sent again to their queue, arriving 1 to 3 s later (a late duplicate, out of order). */
  readonly lateDuplicateRate: number;
  /** The time compression of the fault cloud: a failed record comes back after its queue's visibility timeout divided by this. */
  readonly timeFactor: number;
}

/** The worker handlers, as the local cloud loads them. */
export async function workerHandlers(): Promise<Record<WorkerName, SqsLambda>> {
  const out = {} as Record<WorkerName, SqsLambda>;
  for (const [name, def] of Object.entries(workers)) out[name as WorkerName] = (await import(path.join(ROOT, def.entry))).handler;
  return out;
}

/**
 * The local event source of local/queue-pollers.ts, with every worker wrapped: records shuffled
 * (out of order), batches sometimes run twice at once, records sometimes sent again later, each
 * invocation under the fault plan. A failed record comes back after its queue's visibility
 * timeout divided by the time factor (the webhook worker sets its own backoff).
 */
export async function startFaultyPollers(sqs: SQSClient, queueUrls: Record<QueueName, string>, faults: DeliveryFaults, log: FaultLog, random: () => number) {
  const handlers = await workerHandlers();
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const specs = [];
  for (const [name, def] of Object.entries(workers) as [WorkerName, (typeof workers)[WorkerName]][]) {
    const queueUrl = queueUrls[def.queue];
    const queueArn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? '';
    const inner = handlers[name];
    const handler: SqsLambda = async (event, context) => {
      if (event.Records.length > 1) log.add('sqs_batch_shuffled');
      const runs = [withFaults(faults.plan(), () => inner({ Records: shuffle(event.Records) }, context))];
      if (random() < faults.concurrentDuplicateRate) {
        log.add('sqs_concurrent_duplicate');
        runs.push(withFaults(faults.plan(), () => inner({ Records: shuffle(event.Records) }, context)));
      }
      const failed = new Set<string>();
      for (const run of await Promise.allSettled(runs)) {
        if (run.status === 'rejected') event.Records.forEach((r) => failed.add(r.messageId));
        else for (const f of (run.value.result as SQSBatchResponse | undefined)?.batchItemFailures ?? []) failed.add(f.itemIdentifier);
      }
      // What follows is SQS's and the event source's doing, not the function's: made outside the
      // worker's role (local IAM would refuse a worker without sqs:SendMessage on its own queue, and
      // the refusal failed the whole batch, which then came back only after the queue's full
      // visibility timeout, uncompressed: the soak's minutes of waiting for its last events).
      for (const record of event.Records) {
        if (random() < faults.lateDuplicateRate) {
          log.add('sqs_late_duplicate');
          await outsideAnyCaller(() => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: record.body, DelaySeconds: 1 + Math.floor(random() * 3) })));
        }
        if (failed.has(record.messageId) && def.queue !== 'webhooks') {
          const seconds = Math.ceil(queues[def.queue].visibilityTimeoutSeconds / faults.timeFactor);
          // A record gone meanwhile (to its DLQ) keeps no visibility to change.
          await outsideAnyCaller(() => sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds }))).catch(() => undefined);
        }
      }
      return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
    };
    specs.push({ name, queueUrl, queueArn, batchSize: queues[def.queue].batchSize, handler });
  }
  return startQueuePollers(sqs, specs, () => undefined);
}

/** Messages waiting, in flight or delayed on a queue. */
export async function depth(sqs: SQSClient, url: string): Promise<number> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'] }),
  );
  const a = out.Attributes ?? {};
  return Number(a.ApproximateNumberOfMessages ?? 0) + Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(a.ApproximateNumberOfMessagesDelayed ?? 0);
}

/** Waits until every queue has been empty for `quietMs` (the pipeline has settled); throws after `timeoutMs`. */
export async function waitForQuiet(sqs: SQSClient, queueUrls: Record<QueueName, string>, options: { timeoutMs: number; quietMs?: number }): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const quietMs = options.quietMs ?? 2_500;
  let quietSince: number | undefined;
  for (;;) {
    const depths = await Promise.all(Object.values(queueUrls).map((url) => depth(sqs, url)));
    const busy = depths.reduce((a, b) => a + b, 0);
    if (busy === 0) {
      quietSince ??= Date.now();
      if (Date.now() - quietSince >= quietMs) return;
    } else {
      quietSince = undefined;
    }
    if (Date.now() > deadline) throw new Error(`The pipeline did not settle: ${busy} messages still queued`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Messages in every dead-letter queue, by queue: what the pipeline gave up on. */
export async function deadLetters(sqs: SQSClient, queueUrls: Record<QueueName, string>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, url] of Object.entries(queueUrls)) {
    const dlqName = `${url.split('/').pop()}-dlq`;
    const dlq = await sqs.send(new GetQueueUrlCommand({ QueueName: dlqName }));
    const n = await depth(sqs, dlq.QueueUrl as string);
    if (n > 0) out[name] = n;
  }
  return out;
}
