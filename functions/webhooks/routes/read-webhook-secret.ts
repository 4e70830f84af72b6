import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { webhookSecretAnswerSchema } from '../../../shared/notifications/webhooks/webhook-answers';
import { slotOfKeyMode } from '../../../shared/notifications/webhooks/webhook-job';
import { readWebhookSecret } from '../../../shared/notifications/webhooks/webhook-secret';
import { webhookSecretAccess } from './webhooks-access';

/**
 * `GET /v1/webhooks/secret`: the secret of the key's own slot (live key: live, test key: dev), so
 * that a test key can never sign a live delivery; created on first read.
 */
export const readWebhookSecretRoute = defineRoute({
  method: 'GET',
  path: '/v1/webhooks/secret',
  auth: 'project',
  summary: 'The webhook signing secret',
  description: 'The secret of the calling key\'s slot: the live key reads the live secret, the test key the dev one. Created on first read.',
  answers: {
    200: json(webhookSecretAnswerSchema, 'The slot\'s secret', { success: true, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    ...errors('project', { 404: 'The project no longer exists' }),
  },
  access: webhookSecretAccess,
  handle: async (request) => {
    const { caller } = request;
    return { status: 200, body: { success: true, secret: await readWebhookSecret(services().db, caller.project.id, slotOfKeyMode(caller.mode)) } };
  },
});
