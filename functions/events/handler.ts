import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { eventsRoutes } from './routes';

/** Endpoint group `events`: custom events (part 4.10). */
export const handler = apiHandler('events', eventsRoutes, services);
