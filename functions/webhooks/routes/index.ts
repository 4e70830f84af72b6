import { groupRoutes } from '../../../shared/http/route';
import { listWebhookFailures } from './list-webhook-failures';
import { readWebhookSecretRoute } from './read-webhook-secret';
import { rotateWebhookSecretRoute } from './rotate-webhook-secret';

/** Endpoint group `webhooks`: the signing secrets and the failed deliveries. */
export const webhooksRoutes = groupRoutes('webhooks', [readWebhookSecretRoute, rotateWebhookSecretRoute, listWebhookFailures]);
