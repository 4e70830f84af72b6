import { deleteLead } from '../../../shared/audience/leads/lead-service';
import { leadDoneAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeads } from './lead-access';

/** `DELETE /v1/leads/{id}` (4.9): the lead and its memberships. */
export const deleteLeadRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/leads/{id}',
  auth: 'project',
  summary: 'Delete a lead',
  description: 'Removes its memberships too (and their counts).',
  answers: {
    200: json(leadDoneAnswerSchema, 'Deleted', { success: true }),
    ...errors('project', { 400: 'The id is not a uuid', 404: 'No such lead', 409: 'The lead kept changing concurrently (`CONFLICT`)' }),
  },
  access: writeLeads,
  handle: async (request) => {
    await deleteLead(services().db, request.caller.project.id, request.params.id);
    return { status: 200, body: { success: true } };
  },
});
