import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `leads`: its route modules, one per route (this folder). */
export const leadsRoutes = groupRoutes('leads', []);
