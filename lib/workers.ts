import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { queues as queueDefinitions, WORKER_TIMEOUT_SECONDS } from '../shared/queues';
import { workers, type WorkerName } from '../shared/routes';
import { accessFor, connect, type ServiceResources } from './access';
import { ProjectFunction } from './project-function';
import { pascal } from './queues';

/** Longest wait for a batch to fill: keeps the send latency low when traffic is light. */
export const MAX_BATCHING_WINDOW = Duration.seconds(1);

export interface WorkersProps {
  /** The shared resources; each worker is fed by its queue among `resources.queues`. */
  readonly resources: ServiceResources;
  /**
   * What happens to the log groups when the stack deletes them.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/** One function per queue worker of the route table, fed by its queue with partial batch responses. */
export class Workers extends Construct {
  /** One function per worker, keyed by worker name. */
  public readonly functions: Readonly<Record<WorkerName, ProjectFunction>>;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    const functions = {} as Record<WorkerName, ProjectFunction>;

    for (const [name, def] of Object.entries(workers) as [WorkerName, (typeof workers)[WorkerName]][]) {
      const queueDef = queueDefinitions[def.queue];
      // Lambda refuses an SQS mapping whose visibility timeout is shorter than the function's timeout.
      if (queueDef.visibilityTimeoutSeconds < WORKER_TIMEOUT_SECONDS) {
        throw new Error(
          `Queue ${def.queue}: visibility timeout ${queueDef.visibilityTimeoutSeconds}s is shorter than the worker timeout ${WORKER_TIMEOUT_SECONDS}s`,
        );
      }
      const fn = new ProjectFunction(this, pascal(name), {
        entry: def.entry,
        description: `Worker of the ${def.queue} queue`,
        timeout: Duration.seconds(WORKER_TIMEOUT_SECONDS),
        logRemovalPolicy: props.logRemovalPolicy,
      });
      connect(fn.function, props.resources, accessFor(name));
      fn.function.addEventSource(
        new SqsEventSource(props.resources.queues[def.queue], {
          batchSize: queueDef.batchSize,
          maxBatchingWindow: MAX_BATCHING_WINDOW,
          reportBatchItemFailures: true,
        }),
      );
      functions[name] = fn;
    }
    this.functions = functions;
  }
}
