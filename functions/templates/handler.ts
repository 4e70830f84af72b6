import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { templatesRoutes } from './routes';

/** Endpoint group `templates`: the project's templates (part 4.7). */
export const handler = apiHandler('templates', templatesRoutes, services);
