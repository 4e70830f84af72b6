import { groupRoutes } from '../../../shared/platform/http/route';
import { listEventsRoute } from './list-events';
import { recordEventRoute } from './record-event';
import { recordEventsRoute } from './record-events';

/** Endpoint group `events`: custom events (4.10), one module per route. */
export const eventsRoutes = groupRoutes('events', [recordEventRoute, recordEventsRoute, listEventsRoute]);
