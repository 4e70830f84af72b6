import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queues as queueDefinitions, type QueueDefinition, type QueueName } from '../shared/platform/core/queues';
import { QueueWorker, WORKER_MAX_CONCURRENCY } from './queue-worker';

export { DLQ_RETENTION_DAYS } from './queue-worker';

/** One QueueWorker per definition in shared/platform/core/queues.ts: the queue, its dead-letter queue, its alarm and its maximum concurrency. */
export class Queues extends Construct {
  /** The workers, keyed by queue name; lib/workers.ts attaches their functions. */
  public readonly workers: Readonly<Record<QueueName, QueueWorker>>;
  /** The work queues, keyed by queue name. */
  public readonly queues: Readonly<Record<QueueName, sqs.Queue>>;
  /** Their dead-letter queues, keyed by the name of the queue they serve. */
  public readonly deadLetterQueues: Readonly<Record<QueueName, sqs.Queue>>;
  /** The alarms on the dead-letter queues' depth, keyed by queue name. */
  public readonly deadLetterAlarms: Readonly<Record<QueueName, cloudwatch.Alarm>>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const workers = {} as Record<QueueName, QueueWorker>;
    for (const [name, definition] of Object.entries(queueDefinitions) as [QueueName, QueueDefinition][]) {
      workers[name] = new QueueWorker(this, pascal(name), { definition, maxConcurrency: WORKER_MAX_CONCURRENCY[name] });
    }
    this.workers = workers;
    const each = <T>(pick: (w: QueueWorker) => T) =>
      Object.fromEntries(Object.entries(workers).map(([name, w]) => [name, pick(w)])) as Record<QueueName, T>;
    this.queues = each((w) => w.queue);
    this.deadLetterQueues = each((w) => w.deadLetterQueue);
    this.deadLetterAlarms = each((w) => w.deadLetterAlarm);
  }
}

/** `send-worker` -> `SendWorker`, for construct ids. */
export function pascal(name: string): string {
  return name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}
