import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { batchesRoutes } from './routes';

/** Endpoint group `batches`: batch sends (4.3) and the management of scheduled batches (4.4). */
export const handler = apiHandler('batches', batchesRoutes, services);
