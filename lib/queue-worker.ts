import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDefinition, QueueName } from '../shared/platform/core/queues';
import { WORKER_TIMEOUT_SECONDS } from '../shared/platform/core/queues';
import { connect, type FunctionAccess, type ServiceResources } from './access';
import { ProjectFunction } from './project-function';

/** Days a message that exhausted its receives waits in the dead-letter queue (the SQS maximum). */
export const DLQ_RETENTION_DAYS = 14;

/** Longest wait for a batch to fill: keeps the send latency low when traffic is light. */
export const MAX_BATCHING_WINDOW = Duration.seconds(1);

/** Lambda's default concurrency quota of an account and region (all functions together). */
export const ACCOUNT_CONCURRENCY = 1000;

/**
 * Most concurrent instances the queues' event sources may run, all queue workers together: the rest
 * of ACCOUNT_CONCURRENCY stays for the API (and the minute jobs and the inbound function), so that a
 * large campaign or import never throttles the API. test/infra/worker-concurrency.test.ts holds the
 * values below to it.
 */
export const QUEUE_WORKERS_CONCURRENCY_BUDGET = 310;

/**
 * Maximum concurrency of each queue's event source (Lambda's ScalingConfig.MaximumConcurrency, 2 to
 * 1,000). Above it, messages wait in their queue (no throttling, no receive counted) rather than
 * take instances from the API. Each value is sized to what one instance does:
 */
export const WORKER_MAX_CONCURRENCY: Readonly<Record<QueueName, number>> = {
  /** 10 SES sends an invocation, ~1 s: 100 instances carry ~1,000 mails a second, above most SES quotas. */
  send: 100,
  /** Campaign and batch mails, paced by the campaign send rate: half the send worker's share. */
  'batch-send': 50,
  /** One SES event per mail sent (delivery, bounce...); short table writes, 10 a batch. */
  'ses-events': 20,
  /** Fan-out of events to each webhook URL: a few reads and enqueues. */
  events: 20,
  /** A webhook POST waits on the customer's server (up to its timeout): more instances, each mostly idle. */
  webhooks: 50,
  /** Scheduled sends at their time: re-queue to the send queue. */
  scheduled: 10,
  /** Chunks of a batch's recipients: activity writes, DynamoDB-bound. */
  fanout: 10,
  /** One step of a segment's evaluation (a message at a time), DynamoDB-bound. */
  audience: 10,
  /** Campaign engine steps, one message at a time; each queues a wave's mails. */
  campaigns: 10,
  /** Automation engine: entries and run steps, 10 a batch; DynamoDB-bound, and each send step queues one mail. */
  automations: 20,
  /** Lead imports: up to 15 minutes each; a few at once. */
  imports: 5,
  /** Campaign exports: up to 15 minutes each; a few at once. */
  exports: 5,
};

export interface QueueWorkerProps {
  /** Visibility timeout, receives before the dead-letter queue, batch size (shared/platform/core/queues.ts). */
  readonly definition: QueueDefinition;
  /** Most instances the queue's event source may run at once (2 to 1,000; WORKER_MAX_CONCURRENCY). */
  readonly maxConcurrency: number;
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
    if (!Number.isInteger(props.maxConcurrency) || props.maxConcurrency < 2 || props.maxConcurrency > 1000) {
      throw new Error(`Queue ${id}: maxConcurrency must be a whole number from 2 to 1000 (Lambda's range); got ${props.maxConcurrency}`);
    }
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
      memorySize: this.props.definition.workerMemoryMb,
      logRemovalPolicy: props.logRemovalPolicy,
    });
    connect(fn.function, props.resources, props.access);
    fn.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: this.props.definition.batchSize,
        maxBatchingWindow: this.props.maxBatchingWindow ?? MAX_BATCHING_WINDOW,
        reportBatchItemFailures: true,
        maxConcurrency: this.props.maxConcurrency,
      }),
    );
    this.attached = fn;
    return fn;
  }
}
