import { randomUUID } from 'node:crypto';
import type { Services } from '../container';
import { notFound } from '../errors';
import { keptPayload } from './delivery-log';
import type { WebhookJob } from './webhook-job';

/**
 * Queues a delivery again: the kept payload of `deliveryId`, to the URL and slot it went to, as a new
 * delivery (a new `webhook-id`, signed afresh by the worker with the slot's current secret, with the
 * attempts of its event kind). 404 for an id the project has no kept payload for: unknown, another
 * project's, expired, or too big to keep. Returns the new delivery's id.
 */
export async function redeliverWebhook(deps: Pick<Services, 'db' | 'queue' | 'clock'>, projectId: string, deliveryId: string): Promise<string> {
  const kept = await keptPayload(deps.db, projectId, deliveryId, deps.clock.now());
  if (!kept) throw notFound('Delivery not found, expired, or its payload was too big to keep');
  const job: WebhookJob = {
    v: 1,
    delivery_id: `msg_${randomUUID()}`,
    project_id: projectId,
    url: kept.url,
    slot: kept.slot,
    event: kept.event,
    max_attempts: kept.max_attempts,
    redelivery_of: deliveryId,
  };
  await deps.queue.sendBatch('webhooks', [job]);
  return job.delivery_id;
}
