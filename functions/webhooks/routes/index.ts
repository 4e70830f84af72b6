import { groupRoutes } from '../../../shared/http/route';
import { listWebhookDeliveries } from './list-webhook-deliveries';
import { listWebhookFailures } from './list-webhook-failures';
import { readWebhookSecretRoute } from './read-webhook-secret';
import { redeliverWebhookRoute } from './redeliver-webhook';
import { rotateWebhookSecretRoute } from './rotate-webhook-secret';

/** Endpoint group `webhooks`: the signing secrets, the delivery log and redeliveries, and the failed deliveries. */
export const webhooksRoutes = groupRoutes('webhooks', [readWebhookSecretRoute, rotateWebhookSecretRoute, listWebhookFailures, listWebhookDeliveries, redeliverWebhookRoute]);
