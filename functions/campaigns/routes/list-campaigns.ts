import { campaignListAnswerSchema } from '../../../shared/marketing/campaigns/campaign-answers';
import { campaignListQuerySchema, listCampaigns as list, parseStatusFilter } from '../../../shared/marketing/campaigns/read-campaigns';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { parsePageRequest } from '../../../shared/platform/http/pagination';
import { defineRoute } from '../../../shared/platform/http/route';
import { campaignSummary } from './examples';

/** `GET /v1/campaigns` (4.8): the project's campaigns, newest first. */
export const listCampaigns = defineRoute({
  method: 'GET',
  path: '/v1/campaigns',
  auth: 'project',
  summary: 'Campaigns, newest first',
  description: '`page × per_page` reaches 1,000 deep; past that, read on with `cursor` from `pagination.next_cursor`. No `total_pages` (4.0).',
  query: campaignListQuerySchema,
  answers: {
    200: json(campaignListAnswerSchema, 'A page of campaigns', {
      campaigns: [campaignSummary],
      pagination: { page: 1, per_page: 50, total: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', {
      400: 'Invalid query: `page` or `per_page` out of bounds, an unknown `status`, `page` with `cursor`, a page deeper than 1,000, or a cursor not of this list',
    }),
  },
  // Reads the campaigns and their counters.
  access: { table: 'read' },
  handle: async (request) => {
    const page = parsePageRequest(request.query);
    return { status: 200, body: await list(services(), request.caller, page, parseStatusFilter(request.query.status), request.query) };
  },
});
