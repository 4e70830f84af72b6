import { leadAttributes } from '../../../shared/audience/leads/lead-service';
import { leadAttributesAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { readLeads } from './lead-access';
import { READ_BY_EMAIL_ERRORS } from './lead-errors';

/** `GET /v1/leads/{id}/attributes` (4.9): the lead's data without `_tags` (`{id}`: its URL-encoded email). */
export const showLeadAttributesRoute = defineRoute({
  method: 'GET',
  path: '/v1/leads/{id}/attributes',
  auth: 'project',
  summary: 'A lead\'s attributes',
  description: '`{id}` is the lead\'s email, URL-encoded.',
  answers: {
    200: json(leadAttributesAnswerSchema, 'The lead\'s attributes (`data` without `_tags`)', { success: true, data: { first_name: 'Ada', plan: 'pro' } }),
    ...errors('project', READ_BY_EMAIL_ERRORS),
  },
  access: readLeads,
  handle: async (request) => ({ status: 200, body: { success: true, data: await leadAttributes(services().db, request.caller.project.id, request.params.id) } }),
});
