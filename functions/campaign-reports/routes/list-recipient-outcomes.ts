import { recipientOutcomesAnswerSchema, reportNotFoundSchema } from '../../../shared/marketing/campaign-reports/campaign-report-answers';
import { listRecipientOutcomes as list, recipientOutcomesQuerySchema } from '../../../shared/marketing/campaign-reports/campaign-report';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { CAMPAIGN_ID, reportNotFound } from './examples';

/** `GET /v1/campaigns/{id}/recipients`: the outcome of each recipient released so far. */
export const listRecipientOutcomes = defineRoute({
  method: 'GET',
  path: '/v1/campaigns/{id}/recipients',
  auth: 'project',
  summary: 'The outcome per recipient, paged (with `status`: by `cursor`, reading at most 10 records per row of the page)',
  query: recipientOutcomesQuerySchema,
  answers: {
    200: json(recipientOutcomesAnswerSchema, 'A page of outcomes', {
      success: true,
      campaign_id: CAMPAIGN_ID,
      recipients: [
        {
          email: 'ada@example.com',
          activity_id: '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34',
          status: 'delivered',
          sent_at: '2026-11-26T11:31:02.000Z',
          delivered_at: '2026-11-26T11:31:04.000Z',
          opened: true,
          opened_at: '2026-11-26T12:10:45.000Z',
          machine_opened: false,
          clicked: false,
          clicked_at: null,
          bounced: false,
          bounced_at: null,
          complained: false,
          left_out_reason: null,
        },
      ],
      pagination: { page: 1, per_page: 50, total: 1, total_is_estimate: false, next_cursor: null },
    }),
    ...errors('project', {
      400: 'Invalid query: `page` or `per_page` out of bounds, an unknown `status`, `page` with `cursor` (or `page` above 1 with `status`), a page deeper than 1,000, or a cursor not of this list',
    }),
    404: json(reportNotFoundSchema, 'No campaign of the project has this id (NOT_FOUND)', reportNotFound),
  },
  // Reads the campaign and its activity records.
  access: { table: 'read' },
  handle: async (request) => ({ status: 200, body: await list(services(), request.caller.project.id, request.params.id, request.query) }),
});
