import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `campaigns`: its route modules, one per route (this folder). */
export const campaignsRoutes = groupRoutes('campaigns', []);
