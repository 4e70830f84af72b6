import { trackEvents } from '../../../shared/audience/leads/custom-event-service';
import { bulkEventsBodySchema, toBulkEvents } from '../../../shared/audience/leads/custom-event';
import { eventsRecordedAnswerSchema } from '../../../shared/audience/leads/event-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { recordEvents } from './event-access';

/** `POST /v1/events/bulk` (4.10): up to 1,000 events, all checked before any is recorded. */
export const recordEventsRoute = defineRoute({
  method: 'POST',
  path: '/v1/events/bulk',
  auth: 'project',
  summary: 'Record up to 1,000 events',
  description: 'Every element is checked first: a 400 names the index (`events[2].email is required`) and nothing is recorded.',
  body: bulkEventsBodySchema,
  bodyExample: { events: [{ email: 'ada@example.com', event: 'order_completed', properties: { order_id: 'A-1042' } }, { email: 'grace@example.com', event: 'signed_up' }] },
  answers: {
    201: json(eventsRecordedAnswerSchema, 'Recorded', { success: true, total: 2, created_leads: 1 }),
    ...errors('project', { 400: 'Invalid body: `events` missing, empty or over 1,000, or an element\'s first problem, named by its index; nothing is recorded' }),
  },
  access: recordEvents,
  handle: async (request) => {
    return { status: 201, body: await trackEvents(services(), request.caller.project.id, toBulkEvents(request.body)) };
  },
});
