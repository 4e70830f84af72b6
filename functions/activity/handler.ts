import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { activityRoutes } from './routes';

/** Endpoint group `activity`: activity queries and per-domain statistics. */
export const handler = apiHandler('activity', activityRoutes, services);
