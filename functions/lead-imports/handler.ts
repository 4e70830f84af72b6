import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { leadImportsRoutes } from './routes';

/** Endpoint group `lead-imports`: CSV and JSON-lines imports of leads, read in the background. */
export const handler = apiHandler('lead-imports', leadImportsRoutes, services);
