import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `templates`: its route modules, one per route (this folder). */
export const templatesRoutes = groupRoutes('templates', []);
