import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { segmentsRoutes } from './routes';

/** Endpoint group `segments`: static and dynamic segments (docs/decisions.md, "Leads, segments and custom events"). */
export const handler = apiHandler('segments', segmentsRoutes, services);
