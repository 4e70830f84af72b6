import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { webhooksRoutes } from './routes';

/**
 * Endpoint group `webhooks`: the signing secrets (created on first read), the delivery log and
 * redeliveries, and the failed deliveries.
 * Each key sees and rotates the secret of its own slot only (routes/read-webhook-secret.ts).
 */
export const handler = apiHandler('webhooks', webhooksRoutes, services);
