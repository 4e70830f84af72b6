import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { partnerRoutes } from './routes';

/** Endpoint group `partner`: provisioning and configuring client projects with a partner key. */
export const handler = apiHandler('partner', partnerRoutes, services);
