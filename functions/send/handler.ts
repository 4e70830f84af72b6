import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { sendRoutes } from './routes';

/** Endpoint group `send`: single sends (v1 plain and template, and the advanced send with scheduling and dry runs). */
export const handler = apiHandler('send', sendRoutes, services);
