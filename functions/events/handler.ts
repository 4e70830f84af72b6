import { listEvents, trackEvent, trackEvents } from '../../shared/audience/custom-event-service';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { boundedPaginationBlock, parsePageRequest } from '../../shared/http/pagination';

/** Endpoint group `events`: custom events (part 4.10). */
export const handler = apiHandler('events', {
  'POST /v1/events': async (request) => {
    const { db, clock } = services();
    return { status: 201, body: await trackEvent(db, clock, projectCaller(request).project.id, request.body) };
  },

  'POST /v1/events/bulk': async (request) => {
    const { db, clock } = services();
    return { status: 201, body: await trackEvents(db, clock, projectCaller(request).project.id, request.body) };
  },

  'GET /v1/events': async (request) => {
    const page = parsePageRequest(request.query);
    const { events, listed } = await listEvents(services().db, projectCaller(request).project.id, page, request.query);
    return { status: 200, body: { success: true, data: events, pagination: boundedPaginationBlock(page, listed) } };
  },
});
