import { groupRoutes } from '../../../shared/http/route';

/** Endpoint group `events`: its route modules, one per route (this folder). */
export const eventsRoutes = groupRoutes('events', []);
