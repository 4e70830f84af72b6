import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { webhookSecretAnswerSchema } from '../../../shared/notifications/webhooks/webhook-answers';
import { slotOfKeyMode } from '../../../shared/notifications/webhooks/webhook-job';
import { rotateWebhookSecret } from '../../../shared/notifications/webhooks/webhook-secret';
import { webhookSecretAccess } from './webhooks-access';

/** `POST /v1/webhooks/secret/rotate`: a new secret for the key's own slot; deliveries signed after the answer use it. */
export const rotateWebhookSecretRoute = defineRoute({
  method: 'POST',
  path: '/v1/webhooks/secret/rotate',
  auth: 'project',
  summary: 'Rotate the webhook signing secret',
  description: 'Replaces the secret of the calling key\'s slot; every delivery signed after this answer uses the new one.',
  answers: {
    200: json(webhookSecretAnswerSchema, 'The new secret', { success: true, secret: 'whsec_q3Lr0dN7yXbVh2TgWkP9sJ4mC6aE1fZu' }),
    ...errors('project', {
      // The route reads no body, but one sent is parsed like any other (apiHandler's jsonBody).
      400: 'A body sent that is not JSON, lacks the JSON content type, nests too deep or holds a NUL',
      404: 'The project no longer exists',
    }),
  },
  access: webhookSecretAccess,
  handle: async (request) => {
    const { caller } = request;
    return { status: 200, body: { success: true, secret: await rotateWebhookSecret(services().db, caller.project.id, slotOfKeyMode(caller.mode)) } };
  },
});
