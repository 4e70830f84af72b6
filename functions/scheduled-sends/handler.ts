import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { scheduledSendsRoutes } from './routes';

/** Endpoint group `scheduled-sends`: read, reschedule and cancel a scheduled send (part 4.6). */
export const handler = apiHandler('scheduled-sends', scheduledSendsRoutes, services);
