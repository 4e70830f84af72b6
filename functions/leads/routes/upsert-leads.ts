import { upsertFromRequest } from '../../../shared/audience/leads/lead-service';
import { leadExample, leadUpsertAnswerSchema } from '../../../shared/audience/leads/lead-answers';
import { leadUpsertBodySchema } from '../../../shared/audience/leads/lead-input';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { writeLeadsAndSignal } from './lead-access';
import { EXAMPLE_SEGMENT_ID } from './lead-examples';

/** `POST /v1/leads` (4.9): upserts one lead, or up to 1,000 by email (last wins). */
export const upsertLeadsRoute = defineRoute({
  method: 'POST',
  path: '/v1/leads',
  auth: 'project',
  summary: 'Upsert a lead or up to 1,000 leads',
  description: 'By email: `data` is shallow-merged into the stored data (tags merged), `segment_ids` adds static memberships. With `leads`, every item is checked before anything is written.',
  body: leadUpsertBodySchema,
  bodyExample: { email: 'ada@example.com', data: { first_name: 'Ada', plan: 'pro' }, segment_ids: [EXAMPLE_SEGMENT_ID] },
  answers: {
    201: json(leadUpsertAnswerSchema, 'Upserted', { success: true, total: 1, leads: [{ id: leadExample.id, email: 'ada@example.com', created: true }] }),
    ...errors('project', {
      400: 'Invalid body (the first problem, part 7; a bulk item named by its index), or a lead\'s merged data over a per-lead limit (naming `data` or `leads[i].data`); nothing is written',
    }),
  },
  access: writeLeadsAndSignal,
  handle: async (request) => {
    return { status: 201, body: await upsertFromRequest(services(), request.caller.project.id, request.body) };
  },
});
