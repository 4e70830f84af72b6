import { config, type Config } from '../../platform/core/config';
import type { ServiceEvent } from '../../platform/core/events';
import { logger } from '../../platform/core/logger';
import type { Clock, Queue } from '../../platform/core/ports';
import { queues } from '../../platform/core/queues';
import { ttlAfterDays, type Db } from '../../platform/store/client';
import { WEBHOOK_FAILURE_RETENTION_DAYS, putWebhookFailure } from './failure-repository';
import { webhookHeaders } from './signing';
import type { WebhookJob } from './webhook-job';
import type { PostResult, WebhookPoster } from '../../platform/adapters/webhook-poster';
import { webhookSecretOf } from './webhook-secret';
import { attemptEntry, logDeliveryAttempt } from './delivery-log';

/**
 * Seconds between a failed attempt and the next: after attempt 1, 2, 3, 4 (5 attempts in all).
 * About 42.5 minutes from the first attempt to the last.
 */
export const DEFAULT_BACKOFF_SECONDS: readonly number[] = [30, 120, 600, 1800];

/** SQS allows a message to stay invisible for at most 12 hours. */
const MAX_VISIBILITY_SECONDS = 43_200;

/**
 * The backoff schedule: `WEBHOOK_BACKOFF_SECONDS` (a comma list of whole seconds, e.g. `1,1,1,1`,
 * a test and operations knob) when set and valid, else the default. Read at each use, so a
 * refreshConfig takes effect at once.
 */
export function backoffSchedule(settings: Pick<Config, 'WEBHOOK_BACKOFF_SECONDS'> = config()): readonly number[] {
  const raw = settings.WEBHOOK_BACKOFF_SECONDS?.trim();
  if (!raw) return DEFAULT_BACKOFF_SECONDS;
  const values = raw.split(',').map((v) => v.trim());
  if (values.some((v) => !/^\d+$/.test(v))) {
    logger.warn('WEBHOOK_BACKOFF_SECONDS is not a comma list of whole seconds; using the default', { value: raw });
    return DEFAULT_BACKOFF_SECONDS;
  }
  return values.map((v) => Math.min(Number(v), MAX_VISIBILITY_SECONDS));
}

/** Seconds to wait after failed attempt `attempt` (1-based); the last interval repeats beyond the list. */
export function backoffSeconds(attempt: number, schedule: readonly number[] = backoffSchedule()): number {
  const index = Math.min(Math.max(attempt, 1), schedule.length) - 1;
  return schedule[index] ?? 0;
}

/** A webhooks-queue message body, or an Error for one that is not a delivery. */
export function parseWebhookJob(body: string): WebhookJob {
  let job: Partial<WebhookJob>;
  try {
    job = JSON.parse(body) as Partial<WebhookJob>;
  } catch {
    throw new Error('Webhook job is not JSON');
  }
  const event = job?.event as Partial<ServiceEvent> | undefined;
  if (
    !job ||
    job.v !== 1 ||
    typeof job.delivery_id !== 'string' ||
    typeof job.project_id !== 'string' ||
    typeof job.url !== 'string' ||
    (job.slot !== 'live' && job.slot !== 'dev') ||
    typeof job.max_attempts !== 'number' ||
    job.max_attempts < 1 ||
    (job.redelivery_of !== undefined && typeof job.redelivery_of !== 'string') ||
    !event ||
    typeof event !== 'object' ||
    typeof event.event !== 'string'
  ) {
    throw new Error('Webhook job has an unknown shape');
  }
  return job as WebhookJob;
}

export interface WebhookDeliveryDeps {
  readonly db: Db;
  readonly queue: Queue;
  readonly clock: Clock;
  readonly poster: WebhookPoster;
}

/**
 * What became of one receive of a delivery. `redeliver` asks the worker to report the record as a
 * batch item failure (SQS brings it back when its visibility runs out, or moves it to the DLQ).
 */
export type DeliveryOutcome =
  | { kind: 'delivered'; redeliver: false; attempt: number; status?: number }
  /** The project no longer exists: nothing to deliver to. */
  | { kind: 'dropped'; redeliver: false; reason: string }
  /** Attempt failed, another one follows after `delaySeconds`. */
  | { kind: 'retry'; redeliver: true; attempt: number; delaySeconds: number; result: PostResult }
  /** The last attempt failed: recorded on the failure list; the message heads for the DLQ. */
  | { kind: 'failed'; redeliver: true; attempt: number; result: PostResult }
  /** A receive beyond the last attempt: no POST; the message goes on to the DLQ. */
  | { kind: 'exhausted'; redeliver: true; attempt: number };

/**
 * One receive of a delivery. Attempt n is the message's receive count (ApproximateReceiveCount), so
 * it survives crashes and needs no write per attempt. The webhooks queue moves a message to its DLQ
 * on the receive after its 5th (maxReceiveCount 5):
 * - n < max_attempts, POST fails: the message is hidden for backoff(n), then SQS redelivers it.
 * - n = max_attempts, POST fails: the failure is recorded (once: only one receive has this count)
 *   and the message is made visible at once; the next receive either moves it to the DLQ (outbound:
 *   max_attempts 5 = maxReceiveCount) or lands in the next case.
 * - n > max_attempts (email.inbound, whose one attempt is over): no POST, visible at once again,
 *   until SQS moves it to the DLQ. An outbound event therefore gets exactly 5 POSTs and an inbound
 *   reply exactly 1, and both end in the DLQ with their payload, ready for a redrive.
 */
export async function deliverWebhook(deps: WebhookDeliveryDeps, job: WebhookJob, attempt: number, receiptHandle: string): Promise<DeliveryOutcome> {
  if (attempt > job.max_attempts) {
    await hide(deps, receiptHandle, 0, job);
    return { kind: 'exhausted', redeliver: true, attempt };
  }
  const secret = await webhookSecretOf(deps.db, job.project_id, job.slot);
  if (!secret) return { kind: 'dropped', redeliver: false, reason: 'project not found' };

  const body = JSON.stringify(job.event);
  const headers = webhookHeaders({ secret, deliveryId: job.delivery_id, attemptAt: deps.clock.now(), body, slot: job.slot });
  const startedAt = deps.clock.now();
  const result = await deps.poster.post(job.url, body, headers);
  await logAttempt(deps, job, attempt, result, startedAt);
  if (result.ok) return { kind: 'delivered', redeliver: false, attempt, status: result.status };

  if (attempt < job.max_attempts) {
    const delaySeconds = backoffSeconds(attempt);
    await hide(deps, receiptHandle, delaySeconds, job);
    return { kind: 'retry', redeliver: true, attempt, delaySeconds, result };
  }

  const now = deps.clock.now();
  const activityId = job.event.data?.activity_id;
  try {
    await putWebhookFailure(
      deps.db,
      {
        project_id: job.project_id,
        delivery_id: job.delivery_id,
        event: job.event.event,
        activity_id: typeof activityId === 'string' ? activityId : null,
        url: job.url,
        slot: job.slot,
        attempts: attempt,
        last_status: result.status ?? null,
        last_error: result.error ?? null,
        failed_at: now.toISOString(),
      },
      ttlAfterDays(now, WEBHOOK_FAILURE_RETENTION_DAYS),
    );
  } catch (error) {
    // The payload still reaches the DLQ; only the project's list misses it.
    logger.error('Could not record a failed webhook delivery', { deliveryId: job.delivery_id, error: error as Error });
  }
  await hide(deps, receiptHandle, 0, job);
  return { kind: 'failed', redeliver: true, attempt, result };
}

/**
 * Writes the attempt to the project's delivery log (shared/notifications/webhooks/delivery-log.ts). A log that
 * cannot be written costs the project its diagnostics, never the delivery: logged, not thrown.
 */
async function logAttempt(deps: WebhookDeliveryDeps, job: WebhookJob, attempt: number, result: PostResult, startedAt: Date): Promise<void> {
  const now = deps.clock.now();
  try {
    await logDeliveryAttempt(deps.db, job, attemptEntry(job, attempt, result, startedAt, now.getTime() - startedAt.getTime()), now);
  } catch (error) {
    logger.error('Could not log a webhook delivery attempt', { deliveryId: job.delivery_id, attempt, error: error as Error });
  }
}

/** Sets the message's visibility; if that fails it comes back after the queue's own timeout. */
async function hide(deps: WebhookDeliveryDeps, receiptHandle: string, seconds: number, job: WebhookJob): Promise<void> {
  try {
    await deps.queue.changeVisibility('webhooks', receiptHandle, seconds);
  } catch (error) {
    logger.warn('Could not change the visibility of a webhook delivery', {
      deliveryId: job.delivery_id,
      seconds,
      fallbackSeconds: queues.webhooks.visibilityTimeoutSeconds,
      error: error as Error,
    });
  }
}
