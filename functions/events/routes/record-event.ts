import { trackEvent } from '../../../shared/audience/leads/custom-event-service';
import { eventBodySchema, toEventInput } from '../../../shared/audience/leads/custom-event';
import { eventRecordedAnswerSchema } from '../../../shared/audience/leads/event-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { recordEvents } from './event-access';

/** `POST /v1/events` (4.10): one custom event; an unknown email becomes a lead with empty data. */
export const recordEventRoute = defineRoute({
  method: 'POST',
  path: '/v1/events',
  auth: 'project',
  summary: 'Record a custom event',
  description: 'An unknown email becomes a lead with empty data. `timestamp` defaults to now.',
  body: eventBodySchema,
  bodyExample: { email: 'ada@example.com', event: 'order_completed', properties: { order_id: 'A-1042', total: 59.9 }, timestamp: '2026-11-26T09:30:00Z' },
  answers: {
    201: json(eventRecordedAnswerSchema, 'Recorded', {
      success: true,
      event_id: '2d4f6a8c-1b3e-4d5f-8a7c-9e0b1d2f3a4c',
      recipient_id: '6c1f2d8e-3b4a-4c5d-9e8f-7a6b5c4d3e2f',
      created_lead: false,
    }),
    ...errors('project', { 400: 'Invalid event: the first problem of `email`, `event`, `properties`, `timestamp` (part 7)' }),
  },
  access: recordEvents,
  handle: async (request) => {
    return { status: 201, body: await trackEvent(services(), request.caller.project.id, toEventInput(request.body)) };
  },
});
