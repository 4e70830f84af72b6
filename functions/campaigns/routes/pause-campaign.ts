import { campaignNotFoundSchema, notPausableSchema, pausedCampaignAnswerSchema } from '../../../shared/marketing/campaigns/campaign-answers';
import { pauseCampaign as pause } from '../../../shared/marketing/campaigns/manage-campaign';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { CAMPAIGN_ID, campaignNotFound } from './examples';

/** `POST /v1/campaigns/{id}/pause` (an extension of 4.8): from `pending`, `processing` or `rate_limited`. */
export const pauseCampaign = defineRoute({
  method: 'POST',
  path: '/v1/campaigns/{id}/pause',
  auth: 'project',
  summary: 'Pause a campaign (409 `NOT_PAUSABLE`)',
  answers: {
    200: json(pausedCampaignAnswerSchema, 'Paused by hand', { id: CAMPAIGN_ID, status: 'paused', pause: { reason: 'manual', at: '2026-11-26T12:05:41.000Z' } }),
    404: json(campaignNotFoundSchema, 'No campaign of the project has this id (NOT_FOUND)', campaignNotFound),
    409: json(notPausableSchema, 'The campaign is not `pending`, `processing` or `rate_limited` (NOT_PAUSABLE), or it kept changing under the request (retry)', {
      error: 'NOT_PAUSABLE',
      status: 'completed',
      message: 'A completed campaign cannot be paused; only a pending, processing or rate_limited one',
    }),
  },
  // Moves the campaign's state.
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 200, body: await pause(services(), request.caller, request.params.id) }),
});
