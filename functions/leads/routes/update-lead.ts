import { updateLead } from '../../../shared/audience/leads/lead-service';
import { leadAnswerSchema, leadExample } from '../../../shared/audience/leads/lead-answers';
import { leadUpdateBodySchema, toLeadUpdate } from '../../../shared/audience/leads/lead-input';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeadsAndSignal } from './lead-access';
import { EXAMPLE_SEGMENT_ID } from './lead-examples';

/** `PUT /v1/leads/{id}` (4.9): moves the email, replaces `data` and the static memberships. */
export const updateLeadRoute = defineRoute({
  method: 'PUT',
  path: '/v1/leads/{id}',
  auth: 'project',
  summary: 'Update a lead',
  description: '`email` moves the lead; `data` replaces the whole object (tags kept unless `data._tags` is given); `segment_ids` replaces the static memberships (unknown ids ignored).',
  body: leadUpdateBodySchema,
  bodyExample: { data: { first_name: 'Ada', plan: 'enterprise' }, segment_ids: [EXAMPLE_SEGMENT_ID] },
  answers: {
    200: json(leadAnswerSchema, 'The updated lead, with its segments', { success: true, lead: { ...leadExample, data: { first_name: 'Ada', plan: 'enterprise', _tags: ['beta'] }, segment_ids: [EXAMPLE_SEGMENT_ID] } }),
    ...errors('project', {
      400: 'Invalid body (the first problem, part 7), the id is not a uuid, or the new data over a per-lead limit',
      404: 'No such lead',
      409: 'Another lead has the new email (`DUPLICATE_EMAIL`), or the lead kept changing concurrently (`CONFLICT`)',
    }),
  },
  access: writeLeadsAndSignal,
  handle: async (request) => {
    const lead = await updateLead(services(), request.caller.project.id, request.params.id, toLeadUpdate(request.body));
    return { status: 200, body: { success: true, lead } };
  },
});
