import { mergeAttributes } from '../../../shared/audience/leads/lead-service';
import { leadAttributesAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { attributesBodySchema, toAttributes } from '../../../shared/audience/leads/lead-input';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeadsAndSignal } from './lead-access';
import { ATTRIBUTE_ERRORS } from './lead-errors';

/** `POST /v1/leads/{id}/attributes` (4.9): a flat object shallow-merged into the lead's data (`{id}`: its URL-encoded email). */
export const mergeLeadAttributesRoute = defineRoute({
  method: 'POST',
  path: '/v1/leads/{id}/attributes',
  auth: 'project',
  summary: 'Set attributes',
  description: '`{id}` is the lead\'s email, URL-encoded. The body is a flat object; `_tags` is kept as it is (tags have their own routes).',
  body: attributesBodySchema,
  bodyExample: { plan: 'enterprise', seats: 12 },
  answers: {
    200: json(leadAttributesAnswerSchema, 'The lead\'s attributes after the merge', { success: true, data: { first_name: 'Ada', plan: 'enterprise', seats: 12 } }),
    ...errors('project', ATTRIBUTE_ERRORS),
  },
  access: writeLeadsAndSignal,
  handle: async (request) => {
    return { status: 200, body: { success: true, data: await mergeAttributes(services(), request.caller.project.id, request.params.id, toAttributes(request.body)) } };
  },
});
