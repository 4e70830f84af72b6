import { removeTags } from '../../../shared/audience/leads/lead-service';
import { leadTagsAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { tagsBodySchema, toTags } from '../../../shared/audience/leads/lead-input';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeads } from './lead-access';
import { TAG_ERRORS } from './lead-errors';

/** `DELETE /v1/leads/{id}/tags` (4.9): removes tags from the lead's (`{id}`: its URL-encoded email). */
export const removeLeadTagsRoute = defineRoute({
  method: 'DELETE',
  path: '/v1/leads/{id}/tags',
  auth: 'project',
  summary: 'Remove tags',
  description: '`{id}` is the lead\'s email, URL-encoded.',
  body: tagsBodySchema,
  bodyExample: { tags: ['newsletter'] },
  answers: {
    200: json(leadTagsAnswerSchema, 'The lead\'s tags', { success: true, tags: ['beta'] }),
    ...errors('project', TAG_ERRORS),
  },
  access: writeLeads,
  handle: async (request) => {
    return { status: 200, body: { success: true, tags: await removeTags(services(), request.caller.project.id, request.params.id, toTags(request.body)) } };
  },
});
