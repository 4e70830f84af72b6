import { campaignNotFoundSchema, notResumableSchema, resumedCampaignAnswerSchema } from '../../../shared/marketing/campaigns/campaign-answers';
import { resumeCampaign as resume } from '../../../shared/marketing/campaigns/manage-campaign';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { CAMPAIGN_ID, campaignNotFound } from './examples';

/** `POST /v1/campaigns/{id}/resume` (an extension of 4.8): a paused campaign runs on from its cursor. */
export const resumeCampaign = defineRoute({
  method: 'POST',
  path: '/v1/campaigns/{id}/resume',
  auth: 'project',
  summary: 'Resume a paused campaign (409 `NOT_RESUMABLE`)',
  description: 'Paused by hand or by the reputation guard: back to `processing`, or to `pending` if it had not started; `pause` is cleared.',
  answers: {
    200: json(resumedCampaignAnswerSchema, 'Resumed', { id: CAMPAIGN_ID, status: 'processing' }),
    404: json(campaignNotFoundSchema, 'No campaign of the project has this id (NOT_FOUND)', campaignNotFound),
    409: json(notResumableSchema, 'The campaign is not `paused` (NOT_RESUMABLE), or it kept changing under the request (retry)', {
      error: 'NOT_RESUMABLE',
      status: 'processing',
      message: 'A processing campaign cannot be resumed; only a paused one',
    }),
    ...errors('project', { 500: 'A fault of the service, or the engine\'s resume could not be queued (`Failed to resume campaign`: the campaign stays paused)' }),
  },
  // Moves the campaign's state and queues the engine's resume.
  access: { table: 'readWrite', enqueue: ['campaigns'] },
  handle: async (request) => ({ status: 200, body: await resume(services(), request.caller, request.params.id) }),
});
