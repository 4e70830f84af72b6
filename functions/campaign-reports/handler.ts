import { services } from '../../composition/services';
import { apiHandler } from '../../shared/platform/http/api-handler';
import { campaignReportsRoutes } from './routes';

/** Endpoint group `campaign-reports`: a campaign's recipients left out, outcomes per recipient, and CSV exports. */
export const handler = apiHandler('campaign-reports', campaignReportsRoutes, services);
