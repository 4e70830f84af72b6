import { randomUUID } from 'node:crypto';
import type { Needs } from '../../platform/core/dependencies';
import { notFound } from '../../platform/core/errors';
import { keptPayload } from './delivery-log';
import type { WebhookJob } from './webhook-job';

/**
 * Queues the payload of a log entry again, to the URL and slot it went to, as a new delivery (a new
 * `webhook-id`, signed afresh by the worker with the slot's current secret, with the attempts of its
 * event kind). 404 for an entry id the project has no kept payload under: unknown, another
 * project's, expired, or too big to keep. Returns the new delivery's id and the one it repeats.
 */
export async function redeliverWebhook(deps: Needs<'db' | 'queue' | 'clock'>, projectId: string, entryId: string): Promise<{ deliveryId: string; redeliveryOf: string }> {
  const kept = await keptPayload(deps.db, projectId, entryId, deps.clock.now());
  if (!kept) throw notFound('Delivery not found, expired, or its payload was too big to keep');
  const job: WebhookJob = {
    v: 1,
    delivery_id: `msg_${randomUUID()}`,
    project_id: projectId,
    url: kept.url,
    slot: kept.slot,
    event: kept.event,
    max_attempts: kept.max_attempts,
    redelivery_of: kept.delivery_id,
  };
  await deps.queue.sendBatch('webhooks', [job]);
  return { deliveryId: job.delivery_id, redeliveryOf: kept.delivery_id };
}
