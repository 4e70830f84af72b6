import { presentCampaign } from '../../shared/campaigns/campaign-presenter';
import { parseCampaignRequest } from '../../shared/campaigns/campaign-request';
import { createCampaign } from '../../shared/campaigns/create-campaign';
import { cancelCampaign, pauseCampaign, resumeCampaign } from '../../shared/campaigns/manage-campaign';
import { listCampaigns, parseStatusFilter, readCampaign } from '../../shared/campaigns/read-campaigns';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import { projectCaller } from '../../shared/http/api-types';
import { parsePageRequest } from '../../shared/http/pagination';

/** Endpoint group `campaigns`: create, read, cancel, pause and resume campaigns (4.8). */
export const handler = apiHandler('campaigns', {
  'POST /v1/campaigns': async (request) => {
    const input = parseCampaignRequest(request.body);
    const campaign = await createCampaign(services(), projectCaller(request), input);
    return { status: 200, body: { success: true, campaign: presentCampaign(campaign) } };
  },
  'GET /v1/campaigns': async (request) => {
    const page = parsePageRequest(request.query);
    return { status: 200, body: await listCampaigns(services(), projectCaller(request), page, parseStatusFilter(request.query.status), request.query) };
  },
  'GET /v1/campaigns/{id}': async (request) => ({ status: 200, body: await readCampaign(services(), projectCaller(request), request.params.id) }),
  'POST /v1/campaigns/{id}/cancel': async (request) => ({ status: 200, body: await cancelCampaign(services(), projectCaller(request), request.params.id) }),
  'POST /v1/campaigns/{id}/pause': async (request) => ({ status: 200, body: await pauseCampaign(services(), projectCaller(request), request.params.id) }),
  'POST /v1/campaigns/{id}/resume': async (request) => ({ status: 200, body: await resumeCampaign(services(), projectCaller(request), request.params.id) }),
});
