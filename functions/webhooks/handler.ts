import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { boundedPaginationBlock, parsePageRequest } from '../../shared/http/pagination';
import { listWebhookFailures } from '../../shared/webhooks/webhook-failures';
import { slotOfKeyMode } from '../../shared/webhooks/webhook-job';
import { readWebhookSecret, rotateWebhookSecret } from '../../shared/webhooks/webhook-secret';

/**
 * Endpoint group `webhooks`: the signing secrets (created on first read) and the failed deliveries.
 * Each key sees and rotates the secret of its own slot only: the live key the live one, the test key
 * the dev one, so a test key can never sign a live delivery.
 */
export const handler = apiHandler('webhooks', {
  'GET /v1/webhooks/secret': async (request) => {
    const caller = projectCaller(request);
    const secret = await readWebhookSecret(services().db, caller.project.id, slotOfKeyMode(caller.mode));
    return { status: 200, body: { success: true, secret } };
  },

  'POST /v1/webhooks/secret/rotate': async (request) => {
    const caller = projectCaller(request);
    const secret = await rotateWebhookSecret(services().db, caller.project.id, slotOfKeyMode(caller.mode));
    return { status: 200, body: { success: true, secret } };
  },

  'GET /v1/webhooks/failures': async (request) => {
    const page = parsePageRequest(request.query);
    const { failures, listed } = await listWebhookFailures(services(), projectCaller(request).project.id, page, request.query);
    return { status: 200, body: { success: true, data: failures, pagination: boundedPaginationBlock(page, listed) } };
  },
});
