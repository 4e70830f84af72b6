import type { SQSRecord } from 'aws-lambda';
import { webhookDeliveryScope } from '../../composition/worker-scopes/webhook-delivery';
import { logger } from '../../shared/platform/core/logger';
import { RetryLaterError, sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';
import { deliverWebhook, parseWebhookJob } from '../../shared/notifications/webhooks/deliver-webhook';
import { HttpWebhookPoster, type WebhookPoster } from '../../shared/platform/adapters/webhook-poster';

/** The attempt number of a receive: SQS's receive count (1 on the first). */
export function attemptOf(record: Pick<SQSRecord, 'attributes'>): number {
  const count = Number(record.attributes?.ApproximateReceiveCount);
  return Number.isInteger(count) && count >= 1 ? count : 1;
}

const defaultPoster = (allowLoopback: boolean): WebhookPoster => new HttpWebhookPoster({ allowLoopback });

/**
 * Webhook delivery worker: one POST per record, concurrently. A failed attempt hides its message
 * for the backoff and reports it as a batch item failure; see shared/notifications/webhooks/deliver-webhook.ts
 * and docs/webhooks.md for the attempts and the DLQ. An unreadable body is a batch item failure
 * too, so it ends in the DLQ after the queue's receives. The poster is built per batch from
 * the configuration (composition/worker-scopes/webhook-delivery.ts).
 */
export function createWebhookDeliveryHandler(posterFor: (allowLoopback: boolean) => WebhookPoster = defaultPoster) {
  return sqsBatchHandler(
    async (record, { deps, poster }) => {
      const job = parseWebhookJob(record.body);
      const outcome = await deliverWebhook({ ...deps, poster }, job, attemptOf(record), record.receiptHandle);
      const context = { deliveryId: job.delivery_id, event: job.event.event, projectId: job.project_id, slot: job.slot };
      if (outcome.kind === 'delivered') return logger.debug('Webhook delivered', { ...context, attempt: outcome.attempt, status: outcome.status });
      if (outcome.kind === 'dropped') return logger.warn('Webhook dropped', { ...context, reason: outcome.reason });
      if (outcome.kind === 'failed') {
        logger.warn('Webhook failed for good', { ...context, attempt: outcome.attempt, status: outcome.result.status, error: outcome.result.error });
      }
      const detail =
        outcome.kind === 'retry'
          ? `attempt ${outcome.attempt} failed (${outcome.result.error}); next in ${outcome.delaySeconds} s`
          : `attempt ${outcome.attempt}: ${outcome.kind}, on its way to the DLQ`;
      // A retry, or on its way to the DLQ: either way the message must come back, which is no error of ours.
      throw new RetryLaterError(`Webhook ${job.delivery_id} ${detail}`);
    },
    webhookDeliveryScope(posterFor),
  );
}

export const handler = createWebhookDeliveryHandler();
