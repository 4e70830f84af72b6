import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `activity`: its route modules, one per route (this folder). */
export const activityRoutes = groupRoutes('activity', []);
