import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { consoleRoutes } from './routes';

/** Endpoint group `console`: the web dashboard's page, its built files, and sign-in and sign-out. */
export const handler = apiHandler('console', consoleRoutes, services);
