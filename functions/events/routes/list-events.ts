import { listEvents } from '../../../shared/audience/leads/custom-event-service';
import { eventListRouteQuerySchema } from '../../../shared/audience/leads/custom-event';
import { eventListAnswerSchema } from '../../../shared/audience/leads/event-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { boundedPaginationBlock, parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { readEvents } from './event-access';

/** `GET /v1/events` (4.10): newest timestamp first, by email, name and time range; a bounded page. */
export const listEventsRoute = defineRoute({
  method: 'GET',
  path: '/v1/events',
  auth: 'project',
  summary: 'Custom events',
  description: 'Newest `timestamp` first; `since` and `until` are inclusive. Offset pages reach 1,000 events deep; read on with `cursor`.',
  query: eventListRouteQuerySchema,
  answers: {
    200: json(eventListAnswerSchema, 'A page of events', {
      success: true,
      data: [
        {
          id: '2d4f6a8c-1b3e-4d5f-8a7c-9e0b1d2f3a4c',
          email: 'ada@example.com',
          event: 'order_completed',
          properties: { order_id: 'A-1042', total: 59.9 },
          timestamp: '2026-11-26T09:30:00.000Z',
          recipient_id: '6c1f2d8e-3b4a-4c5d-9e8f-7a6b5c4d3e2f',
          created_at: '2026-11-26T09:30:01.000Z',
        },
      ],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', {
      400: 'Invalid query (`page`, `per_page`, `email`, `event`, `since`, `until`; `since` after `until`), `page` and `cursor` together, a cursor not valid for this list, or `page * per_page` past 1,000 without a cursor',
    }),
  },
  access: readEvents,
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    const { events, listed } = await listEvents(services().db, request.caller.project.id, page, request.query);
    return { status: 200, body: { success: true, data: events, pagination: boundedPaginationBlock(page, listed) } };
  },
});
