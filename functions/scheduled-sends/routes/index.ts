import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `scheduled-sends`: its route modules, one per route (this folder). */
export const scheduledSendsRoutes = groupRoutes('scheduled-sends', []);
