import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { pagesRoutes } from './routes';

/** Endpoint group `pages`: public pages reached by unguessable tokens (no account). */
export const handler = apiHandler('pages', pagesRoutes, services);
