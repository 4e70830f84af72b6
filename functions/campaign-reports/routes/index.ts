import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `campaign-reports`: its route modules, one per route (this folder). */
export const campaignReportsRoutes = groupRoutes('campaign-reports', []);
