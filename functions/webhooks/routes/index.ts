import { groupRoutes } from '../../../shared/http/route';
import { listWebhookFailures } from './list-webhook-failures';
import { readProjectSettingsRoute } from './read-project-settings';
import { readWebhookSecretRoute } from './read-webhook-secret';
import { rotateWebhookSecretRoute } from './rotate-webhook-secret';
import { updateProjectSettingsRoute } from './update-project-settings';

/** Endpoint group `webhooks`: the signing secrets, the failed deliveries, and the project's own settings (its webhook URLs among them). */
export const webhooksRoutes = groupRoutes('webhooks', [readWebhookSecretRoute, rotateWebhookSecretRoute, listWebhookFailures, readProjectSettingsRoute, updateProjectSettingsRoute]);
