import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `links`: its route modules, one per route (this folder). */
export const linksRoutes = groupRoutes('links', []);
