import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { suppressionsRoutes } from './routes';

/** Endpoint group `suppressions`: the project's suppression list. */
export const handler = apiHandler('suppressions', suppressionsRoutes, services);
