import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { trackingRoutes } from './routes';

/** Endpoint group `tracking`: the open pixel and the click redirect, reached by signed tokens (no account). */
export const handler = apiHandler('tracking', trackingRoutes, services);
