import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `tracking`: its route modules, one per route (this folder). */
export const trackingRoutes = groupRoutes('tracking', []);
