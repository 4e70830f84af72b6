import { showLead } from '../../../shared/audience/leads/lead-service';
import { leadAnswerSchema, leadExample } from '../../../shared/audience/leads/lead-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { readLeads } from './lead-access';
import { EXAMPLE_SEGMENT_ID } from './lead-examples';

/** `GET /v1/leads/{id}` (4.9): one lead with its `segment_ids`. */
export const showLeadRoute = defineRoute({
  method: 'GET',
  path: '/v1/leads/{id}',
  auth: 'project',
  summary: 'One lead',
  answers: {
    200: json(leadAnswerSchema, 'The lead, with its segments', { success: true, lead: { ...leadExample, segment_ids: [EXAMPLE_SEGMENT_ID] } }),
    ...errors('project', { 400: 'The id is not a uuid', 404: 'No such lead' }),
  },
  access: readLeads,
  handle: async (request) => ({ status: 200, body: { success: true, lead: await showLead(services().db, request.caller.project.id, request.params.id) } }),
});
