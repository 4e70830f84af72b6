import { services } from '../../../composition/services';
import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { logger } from '../../../shared/platform/core/logger';
import { renderErrorPage, renderNotFoundPage, renderVerificationPage } from '../../../shared/identities/pages/verification-page';
import { domainOfPageToken } from '../../../shared/identities/pages/verification-service';
import { pageView } from '../../../shared/identities/pages/verification-view';
import { htmlAnswer } from './html-answer';
import { readPage } from './page-access';

/** `GET /verify/{token}`: the public page of one domain's records, for whoever manages its DNS (no account). */
export const verificationPage = defineRoute({
  method: 'GET',
  path: '/verify/{token}',
  auth: 'public',
  throttle: 'verify',
  summary: 'Public domain verification page',
  answers: {
    200: htmlPage('The domain, its status and the records to publish'),
    404: htmlPage('The link is not valid (unknown, malformed, or replaced by a new registration)'),
    500: htmlPage('The page failed: an error page (the log has the cause)'),
  },
  access: readPage,
  handle: async (request) => {
    try {
      const domain = await domainOfPageToken(services(), request.params.token);
      if (!domain) return htmlAnswer(404, renderNotFoundPage);
      const view = pageView(domain);
      return htmlAnswer(200, (nonce) => renderVerificationPage(view, nonce));
    } catch (error) {
      // A page, not an API: the visitor gets an HTML error page, the log gets the error.
      logger.error('Verification page failed', { requestId: request.requestId, error: error as Error });
      return htmlAnswer(500, renderErrorPage);
    }
  },
});
