import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `webhooks`: its route modules, one per route (this folder). */
export const webhooksRoutes = groupRoutes('webhooks', []);
