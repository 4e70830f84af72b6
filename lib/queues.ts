import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { queues as queueDefinitions, type QueueDefinition, type QueueName } from '../shared/queues';

/** Days a message that exhausted its receives waits in the dead-letter queue (the SQS maximum). */
export const DLQ_RETENTION_DAYS = 14;

/** One SQS queue per definition in shared/queues.ts, each with its dead-letter queue. */
export class Queues extends Construct {
  /** The work queues, keyed by queue name. */
  public readonly queues: Readonly<Record<QueueName, sqs.Queue>>;
  /** Their dead-letter queues, keyed by the name of the queue they serve. */
  public readonly deadLetterQueues: Readonly<Record<QueueName, sqs.Queue>>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const built = {} as Record<QueueName, sqs.Queue>;
    const dlqs = {} as Record<QueueName, sqs.Queue>;

    for (const [name, def] of Object.entries(queueDefinitions) as [QueueName, QueueDefinition][]) {
      const dlq = new sqs.Queue(this, `${pascal(name)}Dlq`, {
        retentionPeriod: Duration.days(DLQ_RETENTION_DAYS),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      dlqs[name] = dlq;
      built[name] = new sqs.Queue(this, pascal(name), {
        visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount: def.maxReceiveCount },
      });
    }
    this.queues = built;
    this.deadLetterQueues = dlqs;
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
