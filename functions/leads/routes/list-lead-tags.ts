import { leadTags } from '../../../shared/audience/leads/lead-service';
import { leadTagsAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { readLeads } from './lead-access';
import { READ_BY_EMAIL_ERRORS } from './lead-errors';

/** `GET /v1/leads/{id}/tags` (4.9): the lead's tags (`{id}`: its URL-encoded email). */
export const listLeadTagsRoute = defineRoute({
  method: 'GET',
  path: '/v1/leads/{id}/tags',
  auth: 'project',
  summary: 'A lead\'s tags',
  description: '`{id}` is the lead\'s email, URL-encoded.',
  answers: {
    200: json(leadTagsAnswerSchema, 'The lead\'s tags', { success: true, tags: ['beta', 'newsletter'] }),
    ...errors('project', READ_BY_EMAIL_ERRORS),
  },
  access: readLeads,
  handle: async (request) => ({ status: 200, body: { success: true, tags: await leadTags(services().db, request.caller.project.id, request.params.id) } }),
});
