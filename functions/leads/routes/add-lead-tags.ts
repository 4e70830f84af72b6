import { addTags } from '../../../shared/audience/leads/lead-service';
import { leadTagsAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { tagsBodySchema, toTags } from '../../../shared/audience/leads/lead-input';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeadsAndSignal } from './lead-access';
import { TAG_ERRORS } from './lead-errors';

/** `POST /v1/leads/{id}/tags` (4.9): merges tags into the lead's (`{id}`: its URL-encoded email). */
export const addLeadTagsRoute = defineRoute({
  method: 'POST',
  path: '/v1/leads/{id}/tags',
  auth: 'project',
  summary: 'Add tags',
  description: '`{id}` is the lead\'s email, URL-encoded. Tags are trimmed and merged without duplicates.',
  body: tagsBodySchema,
  bodyExample: { tags: ['beta', 'newsletter'] },
  answers: {
    200: json(leadTagsAnswerSchema, 'The lead\'s tags', { success: true, tags: ['beta', 'newsletter'] }),
    ...errors('project', TAG_ERRORS),
  },
  access: writeLeadsAndSignal,
  handle: async (request) => {
    return { status: 200, body: { success: true, tags: await addTags(services(), request.caller.project.id, request.params.id, toTags(request.body)) } };
  },
});
