import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { domainsRoutes } from './routes';

/** Endpoint group `domains`: sending domains, their records and verification, and senders. */
export const handler = apiHandler('domains', domainsRoutes, services);
