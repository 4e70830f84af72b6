import { automationListAnswerSchema } from '../../../shared/marketing/automations/automation-answers';
import { automationListQuerySchema, listAutomations as list } from '../../../shared/marketing/automations/manage-automations';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { automationSummary } from './automation-examples';

/** `GET /v1/automations`: the project's automations, newest first. */
export const listAutomations = defineRoute({
  method: 'GET',
  path: '/v1/automations',
  auth: 'project',
  summary: 'Automations, newest first (without their definitions)',
  description: 'Filter by `status`. Offset pages reach 1,000 entries deep (`page * per_page`); read on with `cursor`.',
  query: automationListQuerySchema,
  answers: {
    200: json(automationListAnswerSchema, 'A page of automations', {
      success: true,
      data: [automationSummary],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', { 400: 'Invalid query: a page parameter out of range, an unknown `status`, `page` with `cursor`, an offset past 1,000, or a cursor not of this list' }),
  },
  // Reads the project's automation list.
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await list(services(), request.caller, parsePageRequest(request.query), request.query) }),
});
