import * as z from '../../../shared/platform/core/zod';
import { withEngagementCounters } from '../../../composition/request-scopes/engagement';
import { services } from '../../../composition/services';
import { defineRoute } from '../../../shared/platform/http/route';
import { logger } from '../../../shared/platform/core/logger';
import { pixelToken, recordOpen, visitorOf } from '../../../shared/mail-pipeline/tracking/engagement';
import { TRANSPARENT_GIF } from '../../../shared/mail-pipeline/tracking/responses';
import { trackingAccess } from './tracking-access';

const PIXEL_HEADERS = { 'content-type': 'image/gif', 'cache-control': 'no-store, no-cache, must-revalidate, max-age=0', pragma: 'no-cache', 'x-content-type-options': 'nosniff' };

/** `GET /t/o/{token}`: the open pixel. Always the same GIF, valid token or not: the answer never tells whether a token is valid. */
export const openPixel = defineRoute({
  method: 'GET',
  path: '/t/o/{token}',
  auth: 'public',
  throttle: 'tracking',
  summary: 'Open pixel',
  description: 'A 1x1 transparent GIF whatever the token; a valid token records the open of its mail.',
  answers: {
    200: { description: 'A 1x1 transparent GIF', schema: z.string().check(z.meta({ format: 'binary' })), contentType: 'image/gif' },
  },
  access: trackingAccess,
  handle: async (request) => {
    try {
      // Only the first human (or machine) open of a mail adds to its campaign: later opens write no counter.
      await withEngagementCounters(services(), ({ counters, tally }) => recordOpen(services(), pixelToken(request.params.token), visitorOf(request.headers), counters, tally));
    } catch (error) {
      logger.error('Recording an open failed', { requestId: request.requestId, error: error as Error });
    }
    return { status: 200, headers: PIXEL_HEADERS, body: TRANSPARENT_GIF };
  },
});
