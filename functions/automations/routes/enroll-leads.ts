import { enrollAnswerSchema, enrollBodySchema } from '../../../shared/marketing/automations/run-answers';
import { enrollLeads as enroll } from '../../../shared/marketing/automations/run-service';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';

/** `POST /v1/automations/{id}/enroll`: up to 1,000 leads (ids or emails) queued to enter an active automation. */
export const enrollLeads = defineRoute({
  method: 'POST',
  path: '/v1/automations/{id}/enroll',
  auth: 'project',
  summary: 'Enroll leads in an active automation (1 to 1,000 lead ids or emails)',
  description: 'Queues the leads to enter, 100 to a message; the entry rules apply as they enter. `properties` become the runs\' `event.*` variables.',
  body: enrollBodySchema,
  bodyExample: { lead_ids: ['c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f'], emails: ['ada@example.com'], properties: { plan: 'pro' } },
  answers: {
    200: json(enrollAnswerSchema, 'Queued', { success: true, enrolled: 2, already_enrolled: 0, not_found: ['nobody@example.com'], not_eligible: 0 }),
    ...errors('project', {
      400: 'No lead named, or more than 1,000',
      404: 'No automation of the project has this id (NOT_FOUND)',
      409: 'The automation is not active (INVALID_STATE)',
    }),
  },
  // Reads the automation, its version, the leads and their entry markers; queues `enter` messages.
  access: { table: 'read', enqueue: ['automations'] },
  handle: async (request) => ({ status: 200, body: await enroll(services(), request.caller, request.params.id, request.body) }),
});
