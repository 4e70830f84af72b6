import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `suppressions`: its route modules, one per route (this folder). */
export const suppressionsRoutes = groupRoutes('suppressions', []);
