import { campaignNotFoundSchema, cancelledCampaignAnswerSchema, notCancellableSchema } from '../../../shared/marketing/campaigns/campaign-answers';
import { cancelCampaign as cancel } from '../../../shared/marketing/campaigns/manage-campaign';
import { services } from '../../../composition/services';
import { json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { CAMPAIGN_ID, campaignNotFound } from './examples';

/** `POST /v1/campaigns/{id}/cancel` (4.8): a soft cutoff from any state but a final one. */
export const cancelCampaign = defineRoute({
  method: 'POST',
  path: '/v1/campaigns/{id}/cancel',
  auth: 'project',
  summary: 'Cancel a campaign (soft cutoff; 409 `NOT_CANCELLABLE`)',
  description: 'The engine releases nothing more, and mails of the campaign not sent yet are cancelled; the template can be deleted again.',
  answers: {
    200: json(cancelledCampaignAnswerSchema, 'Cancelled', { id: CAMPAIGN_ID, status: 'cancelled' }),
    404: json(campaignNotFoundSchema, 'No campaign of the project has this id (NOT_FOUND)', campaignNotFound),
    409: json(notCancellableSchema, 'The campaign is `completed`, `failed` or `cancelled` (NOT_CANCELLABLE), or it kept changing under the request (retry)', {
      error: 'NOT_CANCELLABLE',
      status: 'completed',
      message: 'A completed campaign cannot be cancelled',
    }),
  },
  // Moves the campaign's state and frees its template's usage marker.
  access: { table: 'readWrite' },
  handle: async (request) => ({ status: 200, body: await cancel(services(), request.caller, request.params.id) }),
});
