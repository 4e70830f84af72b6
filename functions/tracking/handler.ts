import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { flushCampaignCounters } from '../../shared/campaigns/campaign-counter-flush';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import type { ApiRequest, ApiResult } from '../../shared/http/api-types';
import { logger } from '../../shared/logger';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';
import { followClick, pixelToken, recordOpen, visitorOf } from '../../shared/tracking/engagement';
import { TRANSPARENT_GIF, invalidLinkPage, trackingErrorPage } from '../../shared/tracking/responses';

const pixel: ApiResult = {
  status: 200,
  headers: { 'content-type': 'image/gif', 'cache-control': 'no-store, no-cache, must-revalidate, max-age=0', pragma: 'no-cache', 'x-content-type-options': 'nosniff' },
  body: TRANSPARENT_GIF,
};

/** Endpoint group `tracking`: the open pixel and the click redirect, reached by signed tokens (no account). */
export const handler = apiHandler('tracking', {
  /** Always the same GIF, valid token or not: the answer never tells whether a token is valid. */
  'GET /t/o/{token}': async (request: ApiRequest) => {
    const counters = new CounterBatch();
    const campaigns = new CampaignCounterBatch();
    try {
      await recordOpen(services(), pixelToken(request.params.token), visitorOf(request.headers), counters, campaigns);
      // Only the first human (or machine) open of a mail adds to its campaign: later opens write no counter.
      await Promise.all([flushCounters(services(), counters), flushCampaignCounters(services(), campaigns)]);
    } catch (error) {
      logger.error('Recording an open failed', { requestId: request.requestId, error: error as Error });
    }
    return pixel;
  },

  /** A 302 to the link of the mail the token names; anything else is a 404 page, never a redirect. */
  'GET /t/c/{token}': async (request: ApiRequest) => {
    const counters = new CounterBatch();
    const campaigns = new CampaignCounterBatch();
    try {
      const click = await followClick(services(), request.params.token, visitorOf(request.headers), counters, campaigns);
      if (!click) return invalidLinkPage();
      await Promise.all([flushCounters(services(), counters), flushCampaignCounters(services(), campaigns)]);
      return {
        status: 302,
        headers: { location: click.location, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
        body: '',
      };
    } catch (error) {
      logger.error('Following a click failed', { requestId: request.requestId, error: error as Error });
      return trackingErrorPage();
    }
  },
});
