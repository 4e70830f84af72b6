import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `docs`: its route modules, one per route (this folder). */
export const docsRoutes = groupRoutes('docs', []);
