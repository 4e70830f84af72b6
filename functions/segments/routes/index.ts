import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `segments`: its route modules, one per route (this folder). */
export const segmentsRoutes = groupRoutes('segments', []);
