import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { redeliverWebhook } from '../../../shared/notifications/webhooks/redeliver';
import { webhookRedeliveryAnswerSchema } from '../../../shared/notifications/webhooks/webhook-answers';
import { webhookRedeliveryAccess } from './webhooks-access';

/**
 * `POST /v1/webhooks/deliveries/{id}/redeliver`: the payload of a log entry (`id` from
 * GET /v1/webhooks/deliveries) to the same URL again, as a new delivery. Each call queues one; an `Idempotency-Key` makes a retried call answer the first one's
 * new id instead of queueing another.
 */
export const redeliverWebhookRoute = defineRoute({
  method: 'POST',
  path: '/v1/webhooks/deliveries/{id}/redeliver',
  auth: 'project',
  idempotency: 'supported',
  summary: 'Redeliver a webhook',
  description:
    'Queues the payload of a delivery attempt of the last 3 days (`id` of a `GET /v1/webhooks/deliveries` entry) again, to the URL and slot it went to, as a new delivery with its own `webhook-id`, signed with the slot\'s current secret and retried like any other. ' +
    'Each call queues one more; send an `Idempotency-Key` to make a retried call safe.',
  answers: {
    202: json(webhookRedeliveryAnswerSchema, 'Queued', {
      success: true,
      delivery_id: 'msg_9d41c2b7-6e3a-4f80-b1d5-2a7c8e0f4b96',
      redelivery_of: 'msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21',
    }),
    ...errors('project', {
      // The route reads no body, but one sent is parsed like any other (apiHandler's jsonBody).
      400: 'A body sent that is not JSON, lacks the JSON content type, nests too deep or holds a NUL',
      404: 'No entry of this project\'s delivery log with this id (unknown, another project\'s, older than 3 days), or its payload was too big to keep (`redeliverable: false`)',
    }),
  },
  access: webhookRedeliveryAccess,
  handle: async (request) => {
    const { deliveryId, redeliveryOf } = await redeliverWebhook(services(), request.caller.project.id, request.params.id ?? '');
    return { status: 202, body: { success: true, delivery_id: deliveryId, redelivery_of: redeliveryOf } };
  },
});
