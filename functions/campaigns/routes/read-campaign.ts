import { campaignNotFoundSchema, campaignReadAnswerSchema } from '../../../shared/marketing/campaigns/campaign-answers';
import { readCampaign as read } from '../../../shared/marketing/campaigns/read-campaigns';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { campaignNotFound, campaignSummary } from './examples';

/** `GET /v1/campaigns/{id}` (4.8): the campaign and its metrics. */
export const readCampaign = defineRoute({
  method: 'GET',
  path: '/v1/campaigns/{id}',
  auth: 'project',
  summary: 'A campaign and its metrics (from counters)',
  answers: {
    200: json(campaignReadAnswerSchema, 'The campaign and its metrics', {
      campaign: campaignSummary,
      metrics: { sent: 40210, delivered: 39874, opened: 11320, clicked: 2214, bounced: 96, complained: 3 },
    }),
    404: json(campaignNotFoundSchema, 'No campaign of the project has this id (NOT_FOUND)', campaignNotFound),
  },
  // Reads the campaign and its counters; queues the engine's init again for a campaign whose init was lost.
  access: { table: 'read', enqueue: ['campaigns'] },
  handle: async (request) => ({ status: 200, body: await read(services(), request.caller, request.params.id) }),
});
