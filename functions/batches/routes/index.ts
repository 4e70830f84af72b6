import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `batches`: its route modules, one per route (this folder). */
export const batchesRoutes = groupRoutes('batches', []);
