import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `lead-imports`: its route modules, one per route (this folder). */
export const leadImportsRoutes = groupRoutes('lead-imports', []);
