import { leftOutAnswerSchema, reportNotFoundSchema } from '../../../shared/marketing/campaign-reports/campaign-report-answers';
import { leftOutQuerySchema, listLeftOut as list } from '../../../shared/marketing/campaign-reports/campaign-report';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { CAMPAIGN_ID, reportNotFound } from './examples';

/** `GET /v1/campaigns/{id}/left-out`: the recipients the campaign did not send to, and why. */
export const listLeftOut = defineRoute({
  method: 'GET',
  path: '/v1/campaigns/{id}/left-out',
  auth: 'project',
  summary: 'Recipients left out, and why, paged by `cursor` (at most 10 records read per row of the page)',
  query: leftOutQuerySchema,
  answers: {
    200: json(leftOutAnswerSchema, 'A page of the recipients left out', {
      success: true,
      campaign_id: CAMPAIGN_ID,
      left_out: { total: 5 },
      recipients: [{ email: 'grace@example.com', activity_id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', reason: 'unsubscribed', suppression_reason: 'unsubscribe' }],
      pagination: { per_page: 50, read: 412, next_cursor: null },
    }),
    ...errors('project', {
      400: 'Invalid query: `page` or `per_page` out of bounds, an unknown `reason`, `page` above 1 (this list pages by cursor), or a cursor not of this list',
    }),
    404: json(reportNotFoundSchema, 'No campaign of the project has this id (NOT_FOUND)', reportNotFound),
  },
  // Reads the campaign, its counters and its activity records.
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await list(services(), request.caller.project.id, request.params.id, request.query) }),
});
