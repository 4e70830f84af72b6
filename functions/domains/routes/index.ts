import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `domains`: its route modules, one per route (this folder). */
export const domainsRoutes = groupRoutes('domains', []);
