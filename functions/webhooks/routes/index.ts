import { groupRoutes } from '../../../shared/platform/http/route';
import { listWebhookDeliveries } from './list-webhook-deliveries';
import { listWebhookFailures } from './list-webhook-failures';
import { readProjectSettingsRoute } from './read-project-settings';
import { readWebhookSecretRoute } from './read-webhook-secret';
import { redeliverWebhookRoute } from './redeliver-webhook';
import { rotateWebhookSecretRoute } from './rotate-webhook-secret';
import { updateProjectSettingsRoute } from './update-project-settings';

/** Endpoint group `webhooks`: the signing secrets, the delivery log and redeliveries, the failed deliveries, and the project's own settings (its webhook URLs among them). */
export const webhooksRoutes = groupRoutes('webhooks', [
  readWebhookSecretRoute,
  rotateWebhookSecretRoute,
  listWebhookFailures,
  listWebhookDeliveries,
  redeliverWebhookRoute,
  readProjectSettingsRoute,
  updateProjectSettingsRoute,
]);
