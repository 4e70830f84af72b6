import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDefinition } from '../shared/queues';
import { WORKER_TIMEOUT_SECONDS } from '../shared/queues';
import { connect, type FunctionAccess, type ServiceResources } from './access';
import { ProjectFunction } from './project-function';

/** Days a message that exhausted its receives waits in the dead-letter queue (the SQS maximum). */
export const DLQ_RETENTION_DAYS = 14;

/** Longest wait for a batch to fill: keeps the send latency low when traffic is light. */
export const MAX_BATCHING_WINDOW = Duration.seconds(1);

export interface QueueWorkerProps {
  /** Visibility timeout, receives before the dead-letter queue, batch size (shared/queues.ts). */
  readonly definition: QueueDefinition;
  /**
   * How long a message waits in the dead-letter queue.
   * @default Duration.days(DLQ_RETENTION_DAYS)
   */
  readonly deadLetterRetention?: Duration;
  /**
   * Longest wait for a batch to fill.
   * @default MAX_BATCHING_WINDOW (1 second)
   */
  readonly maxBatchingWindow?: Duration;
}

export interface QueueWorkerFunctionProps {
  /** Handler file relative to the repository root, as written in the route table. */
  readonly entry: string;
  /** What the function may touch; the grants and variables follow from it (lib/access.ts). */
  readonly access: FunctionAccess;
  /** The shared resources, this worker's own queue among them. */
  readonly resources: ServiceResources;
  /**
   * Shown in the console.
   * @default 'Worker of the <queue> queue'
   */
  readonly description?: string;
  /**
   * What happens to the log group when the stack deletes it.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/**
 * One SQS worker: its queue, the dead-letter queue, an alarm when anything lands there, and (once
 * attached) the function fed by the queue with partial batch responses, with its grants.
 *
 * The function is attached in a second step because workers enqueue to each other's queues: every
 * queue must exist before any function is connected to the resources.
 */
export class QueueWorker extends Construct {
  /** The work queue. */
  public readonly queue: sqs.Queue;
  /** Where a message goes after `maxReceiveCount` receives. */
  public readonly deadLetterQueue: sqs.Queue;
  /** In alarm while the dead-letter queue holds a message; add an action (SNS, chat) to be told. */
  public readonly deadLetterAlarm: cloudwatch.Alarm;
  private readonly props: QueueWorkerProps;
  private attached?: ProjectFunction;

  constructor(scope: Construct, id: string, props: QueueWorkerProps) {
    super(scope, id);
    this.props = props;
    // Lambda refuses an SQS mapping whose visibility timeout is shorter than the function's timeout.
    const timeout = props.definition.workerTimeoutSeconds ?? WORKER_TIMEOUT_SECONDS;
    if (props.definition.visibilityTimeoutSeconds < timeout) {
      throw new Error(`Queue ${id}: visibility timeout ${props.definition.visibilityTimeoutSeconds}s is shorter than the worker timeout ${timeout}s`);
    }
    this.deadLetterQueue = new sqs.Queue(this, 'Dlq', {
      retentionPeriod: props.deadLetterRetention ?? Duration.days(DLQ_RETENTION_DAYS),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new sqs.Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(props.definition.visibilityTimeoutSeconds),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.definition.maxReceiveCount },
    });
    this.deadLetterAlarm = new cloudwatch.Alarm(this, 'DlqAlarm', {
      alarmDescription: `Messages of ${this.node.path} exhausted their receives and wait in its dead-letter queue`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }

  /** The worker function; fails the synth when none was attached. */
  public get function(): ProjectFunction {
    if (!this.attached) throw new Error(`${this.node.path} has no function: call attachFunction`);
    return this.attached;
  }

  /** Creates the worker function, connects it to the resources and feeds it from the queue (once). */
  public attachFunction(props: QueueWorkerFunctionProps): ProjectFunction {
    if (this.attached) throw new Error(`${this.node.path} already has its function`);
    const fn = new ProjectFunction(this, 'Function', {
      entry: props.entry,
      description: props.description ?? `Worker of the ${this.node.id} queue`,
      timeout: Duration.seconds(this.props.definition.workerTimeoutSeconds ?? WORKER_TIMEOUT_SECONDS),
      logRemovalPolicy: props.logRemovalPolicy,
    });
    connect(fn.function, props.resources, props.access);
    fn.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: this.props.definition.batchSize,
        maxBatchingWindow: this.props.maxBatchingWindow ?? MAX_BATCHING_WINDOW,
        reportBatchItemFailures: true,
      }),
    );
    this.attached = fn;
    return fn;
  }
}
