import { services } from '../../shared/container';
import { forbidden } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { paginationBlock, parsePageRequest } from '../../shared/http/pagination';
import { listWebhookFailures } from '../../shared/webhooks/webhook-failures';
import { readWebhookSecret, rotateWebhookSecret } from '../../shared/webhooks/webhook-secret';

/** Endpoint group `webhooks`: the signing secret (created on first read) and the failed deliveries. */
export const handler = apiHandler('webhooks', {
  'GET /v1/webhooks/secret': async (request) => {
    const secret = await readWebhookSecret(services().db, projectCaller(request).project.id);
    return { status: 200, body: { success: true, secret } };
  },

  'POST /v1/webhooks/secret/rotate': async (request) => {
    const caller = projectCaller(request);
    // A test key may read the secret (dev receivers verify with it) but not break the live ones.
    if (caller.mode !== 'live') throw forbidden('Rotating the webhook secret needs the live key');
    const secret = await rotateWebhookSecret(services().db, caller.project.id);
    return { status: 200, body: { success: true, secret } };
  },

  'GET /v1/webhooks/failures': async (request) => {
    const page = parsePageRequest(request.query);
    const { failures, total } = await listWebhookFailures(services(), projectCaller(request).project.id, page);
    return { status: 200, body: { success: true, data: failures, pagination: paginationBlock(page, total) } };
  },
});
