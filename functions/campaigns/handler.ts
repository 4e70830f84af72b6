import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { campaignsRoutes } from './routes';

/** Endpoint group `campaigns`: create, read, cancel, pause and resume campaigns (4.8). */
export const handler = apiHandler('campaigns', campaignsRoutes, services);
