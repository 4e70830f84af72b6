import type { RemovalPolicy } from 'aws-cdk-lib';
import { workers, type WorkerName } from '../shared/platform/core/routes';
import { functionAccess, type ServiceResources } from './access';
import type { ProjectFunction } from './project-function';
import type { Queues } from './queues';

export { MAX_BATCHING_WINDOW } from './queue-worker';

export interface WorkersProps {
  /** The queue workers, one per queue; each worker of the route table becomes the function of its queue's. */
  readonly queues: Queues;
  /** The shared resources the functions are connected to. */
  readonly resources: ServiceResources;
  /**
   * What happens to the log groups when the stack deletes them.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/** Attaches every queue worker of the route table to its queue's QueueWorker; returns the functions by worker name. */
export function attachWorkers(props: WorkersProps): Readonly<Record<WorkerName, ProjectFunction>> {
  const functions = {} as Record<WorkerName, ProjectFunction>;
  for (const name of Object.keys(workers) as WorkerName[]) {
    const def = workers[name];
    functions[name] = props.queues.workers[def.queue].attachFunction({
      entry: def.entry,
      access: functionAccess[name],
      resources: props.resources,
      logRemovalPolicy: props.logRemovalPolicy,
    });
  }
  return functions;
}
