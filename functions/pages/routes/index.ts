import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `pages`: its route modules, one per route (this folder). */
export const pagesRoutes = groupRoutes('pages', []);
