import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { docsRoutes } from './routes';

/** Endpoint group `docs`: the OpenAPI document (built by `npm run openapi`, bundled) and its reference page. */
export const handler = apiHandler('docs', docsRoutes, services);
