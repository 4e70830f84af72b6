import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { leadsRoutes } from './routes';

/** Endpoint group `leads`: leads, their segments, tags and attributes (part 4.9). */
export const handler = apiHandler('leads', leadsRoutes, services);
