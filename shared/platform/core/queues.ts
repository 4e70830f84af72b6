/** Queue definitions, read by the CDK stack and by the local cloud. */

export interface QueueDefinition {
  /** Environment variable through which functions learn the queue URL. */
  readonly urlEnv: string;
  /** Seconds a received message stays invisible; longer than the worker's timeout. */
  readonly visibilityTimeoutSeconds: number;
  /** Receives before SQS moves a message to the dead-letter queue. */
  readonly maxReceiveCount: number;
  /** Messages per worker invocation. */
  readonly batchSize: number;
  /**
   * Seconds the queue's worker may run.
   * @default WORKER_TIMEOUT_SECONDS
   */
  readonly workerTimeoutSeconds?: number;
  /**
   * Memory of the queue's worker (and with it its CPU share).
   * @default DEFAULT_MEMORY_MB (lib/project-function.ts)
   */
  readonly workerMemoryMb?: number;
}

export const queues = {
  /** One message per activity to hand to SES. */
  send: { urlEnv: 'SEND_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 10 },
  /** Events for the project's webhooks (domain, sender, email and suppression events). */
  events: { urlEnv: 'EVENTS_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 10 },
  /** One message per (event, URL): a webhook POST with its own retries. */
  webhooks: { urlEnv: 'WEBHOOKS_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10 },
  /** SES sending events (Delivery, Bounce, Complaint...), from the configuration set through SNS. */
  'ses-events': { urlEnv: 'SES_EVENTS_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 10 },
  /** Scheduled sends at their time: delayed messages from the sweep (or from the API for sends due soon). */
  scheduled: { urlEnv: 'SCHEDULED_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 10 },
  /** Audience jobs: one step of a dynamic segment's evaluation (a shard, a bounded number of pages), a deleted segment's cleanup. */
  audience: { urlEnv: 'AUDIENCE_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 1 },
  /** One message per chunk of a batch's recipients: the fan-out writes their activity records and queues their mails. */
  fanout: { urlEnv: 'FANOUT_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 2 },
  /** Batch mails, several recipients to a message; each recipient is claimed and sent on its own. */
  'batch-send': { urlEnv: 'BATCH_SEND_QUEUE_URL', visibilityTimeoutSeconds: 60, maxReceiveCount: 8, batchSize: 10 },
  /**
   * Lead imports: one message runs an import from its checkpoint for up to the worker's 15 minutes
   * (Lambda's limit), then queues its own continuation; a crashed run comes back after the visibility timeout.
   */
  imports: { urlEnv: 'IMPORTS_QUEUE_URL', visibilityTimeoutSeconds: 960, maxReceiveCount: 8, batchSize: 1, workerTimeoutSeconds: 900 },
  /**
   * Campaign engine messages (init, step, resume; docs/campaigns.md): one at a time per message, each
   * step fenced by the campaign's step number, so duplicates and stale steps do nothing.
   */
  campaigns: { urlEnv: 'CAMPAIGNS_QUEUE_URL', visibilityTimeoutSeconds: 120, maxReceiveCount: 8, batchSize: 1 },
  /**
   * Campaign outcome exports: one message writes CSV parts from the export's checkpoint for up to the
   * worker's 15 minutes, then queues its own continuation (as `imports` does).
   */
  /**
   * Automation engine messages (docs/automations.md): entries, run steps, lead events for waits and
   * exit rules, releases and date walks. Each is safe to receive twice (entry keys, the run's seq).
   */
  // CPU-bound (an entry renders and accepts its first mail): at 1,024 MB a full batch of 1,000
  // entrants takes about 22 s where 256 MB would take 87 s, over the timeout, for the same GB-seconds.
  automations: { urlEnv: 'AUTOMATIONS_QUEUE_URL', visibilityTimeoutSeconds: 120, maxReceiveCount: 8, batchSize: 10, workerTimeoutSeconds: 60, workerMemoryMb: 1024 },
  exports: { urlEnv: 'EXPORTS_QUEUE_URL', visibilityTimeoutSeconds: 960, maxReceiveCount: 8, batchSize: 1, workerTimeoutSeconds: 900 },
} as const satisfies Record<string, QueueDefinition>;

export type QueueName = keyof typeof queues;

/** Seconds the send worker may run; the queue's visibility timeout is twice that. */
export const WORKER_TIMEOUT_SECONDS = 30;
