import { campaignUnprocessableSchema, createdCampaignAnswerSchema, duplicateCampaignSchema } from '../../../shared/marketing/campaigns/campaign-answers';
import { presentCampaign } from '../../../shared/marketing/campaigns/campaign-presenter';
import { campaignBodySchema, toCampaignRequest } from '../../../shared/marketing/campaigns/campaign-request';
import { createCampaign as create } from '../../../shared/marketing/campaigns/create-campaign';
import { services } from '../../../composition/services';
import { errors, json } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { CAMPAIGN_ID, createdCampaign } from './examples';

/** `POST /v1/campaigns` (4.8): a campaign in `initializing`, or 409 `duplicate_campaign` unless confirmed. */
export const createCampaign = defineRoute({
  method: 'POST',
  path: '/v1/campaigns',
  auth: 'project',
  summary: 'Create a campaign (answers in `initializing`; 409 `duplicate_campaign` unless `confirmDuplicate`)',
  description:
    'One audience: `recipientIds`, `selectAllRecipients: true` (with `recipientCount`, and optionally `recipientFilter`), `segmentId` or `followUp`. The rules the spec leaves open: docs/campaigns-api.md.',
  body: campaignBodySchema,
  bodyExample: {
    name: 'Spring sale',
    templateId: '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b',
    senderProfileId: 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f',
    selectAllRecipients: true,
    recipientCount: 120000,
    recipientFilter: { conditions: [{ tags: { any: ['vip'] } }] },
    scheduleType: 'delay',
    delayAmount: 2,
    delayUnit: 'hours',
    sendOverHours: 6,
    variableConfig: { defaults: { first_name: 'friend' }, mappings: { first_name: 'name' } },
  },
  answers: {
    200: json(createdCampaignAnswerSchema, 'Created, in `initializing`: the engine counts the audience, then starts or schedules it', { success: true, campaign: createdCampaign }),
    ...errors('project', {
      400: "Invalid body (the first problem: part 7's four messages first, then the fields in 4.8's order), a past `scheduledFor`, a start more than 365 days ahead, or no subject given while the template has none",
      403: 'The project is disabled (PROJECT_DISABLED)',
      404: 'No template, sender profile, segment or follow-up campaign of the project with the id given (`Template not found with ID ...`)',
      500: 'A fault of the service, or the engine\'s start could not be queued (`Failed to create campaign`: the campaign is marked failed)',
    }),
    409: json(duplicateCampaignSchema, 'A duplicate of a recent campaign (`duplicate_campaign`): resend with `confirmDuplicate: true`', {
      error: 'duplicate_campaign',
      warning: 'duplicate_campaign',
      reason: 'subject_match_60min',
      message: `A campaign with the same subject was created within the last 60 minutes (${CAMPAIGN_ID}); resend with confirmDuplicate: true to create it anyway`,
      existingCampaignId: CAMPAIGN_ID,
      existingCampaignStatus: 'processing',
    }),
    422: json(campaignUnprocessableSchema, 'The sender profile cannot send yet (SENDER_NOT_VERIFIED), or the dynamic segment was never evaluated (SEGMENT_NOT_EVALUATED)', {
      error: 'Dynamic segment 8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d has no finished evaluation yet; evaluate it first',
      code: 'SEGMENT_NOT_EVALUATED',
    }),
  },
  // Writes the campaign and its template usage, stores `recipientIds` in the bucket, queues the engine's init.
  access: { table: 'readWrite', enqueue: ['campaigns'], payloads: 'put' },
  handle: async (request) => {
    const campaign = await create(services(), request.caller, toCampaignRequest(request.body));
    return { status: 200, body: { success: true, campaign: presentCampaign(campaign) } };
  },
});
