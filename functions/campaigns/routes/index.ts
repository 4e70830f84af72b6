import { groupRoutes } from '../../../shared/platform/http/route';
import { cancelCampaign } from './cancel-campaign';
import { createCampaign } from './create-campaign';
import { listCampaigns } from './list-campaigns';
import { pauseCampaign } from './pause-campaign';
import { readCampaign } from './read-campaign';
import { resumeCampaign } from './resume-campaign';

/** Endpoint group `campaigns`: create, read, cancel, pause and resume campaigns (4.8). */
export const campaignsRoutes = groupRoutes('campaigns', [createCampaign, listCampaigns, readCampaign, cancelCampaign, pauseCampaign, resumeCampaign]);
