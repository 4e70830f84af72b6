import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { linksRoutes } from './routes';

/** Endpoint group `links`: the unsubscribe and view-in-browser pages reached by signed tokens. */
export const handler = apiHandler('links', linksRoutes, services);
