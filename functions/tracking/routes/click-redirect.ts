import { withEngagementCounters } from '../../../composition/request-scopes/engagement';
import { services } from '../../../composition/services';
import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { logger } from '../../../shared/platform/core/logger';
import { followClick, visitorOf } from '../../../shared/mail-pipeline/tracking/engagement';
import { invalidLinkPage, trackingErrorPage } from '../../../shared/mail-pipeline/tracking/responses';
import { trackingAccess } from './tracking-access';

/** `GET /t/c/{token}`: a 302 to the link of the mail the token names; anything else is a 404 page, never a redirect. */
export const clickRedirect = defineRoute({
  method: 'GET',
  path: '/t/c/{token}',
  auth: 'public',
  throttle: 'tracking',
  summary: 'Click redirect',
  description: 'Records the click and redirects to the link of the mail the token names.',
  answers: {
    302: { description: 'To the link (`Location`); no body' },
    404: htmlPage('The token is tampered with, unknown, or names no link of its mail: a page, never a redirect'),
    500: htmlPage('The link could not be looked up right now: a page asking to try again'),
  },
  access: trackingAccess,
  handle: async (request) => {
    try {
      const click = await withEngagementCounters(services(), ({ counters, tally }) => followClick(services(), request.params.token, visitorOf(request.headers), counters, tally));
      if (!click) return invalidLinkPage();
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
