import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `partner`: its route modules, one per route (this folder). */
export const partnerRoutes = groupRoutes('partner', []);
