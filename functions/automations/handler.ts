import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { automationsRoutes } from './routes';

/** Endpoint group `automations`: automations, enrolment, runs and statistics (docs/automations.md). */
export const handler = apiHandler('automations', automationsRoutes, services);
