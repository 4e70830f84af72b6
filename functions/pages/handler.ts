import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import type { ApiRequest, ApiResult } from '../../shared/http/api-types';
import { logger } from '../../shared/logger';
import { confirmSender, senderOfConfirmationLink } from '../../shared/domains/sender-service';
import { newNonce } from '../../shared/pages/page-headers';
import { renderConfirmPage, renderConfirmedPage, renderInvalidLinkPage } from '../../shared/pages/sender-confirmation-page';
import { pageHeaders, renderErrorPage, renderNotFoundPage, renderVerificationPage } from '../../shared/pages/verification-page';
import { domainOfPageToken, verifyByPageToken } from '../../shared/pages/verification-service';
import { pageView, verifyResult } from '../../shared/pages/verification-view';

function html(status: number, render: (nonce: string) => string): ApiResult {
  const nonce = newNonce();
  return { status, headers: pageHeaders(nonce), body: render(nonce) };
}

const htmlPage = (status: number, page: { headers: Record<string, string>; body: string }): ApiResult => ({ status, headers: page.headers, body: page.body });

/** Endpoint group `pages`: public pages reached by unguessable tokens (no account). */
export const handler = apiHandler('pages', {
  'GET /verify/{token}': async (request: ApiRequest) => {
    try {
      const domain = await domainOfPageToken(services(), request.params.token);
      if (!domain) return html(404, renderNotFoundPage);
      const view = pageView(domain);
      return html(200, (nonce) => renderVerificationPage(view, nonce));
    } catch (error) {
      // A page, not an API: the visitor gets an HTML error page, the log gets the error.
      logger.error('Verification page failed', { requestId: request.requestId, error: error as Error });
      return html(500, renderErrorPage);
    }
  },

  'POST /verify/{token}': async (request: ApiRequest) => {
    const checked = await verifyByPageToken(services(), request.params.token);
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: verifyResult(checked) };
  },

  // A project's own sender-confirmation link: the GET shows a button, only its POST confirms
  // (mail scanners open links; they do not submit forms).
  'GET /senders/confirm/{token}': async (request) => {
    const sender = await senderOfConfirmationLink(services(), request.params.token);
    return htmlPage(sender ? 200 : 404, sender ? renderConfirmPage(sender.from_email) : renderInvalidLinkPage());
  },

  'POST /senders/confirm/{token}': async (request) => {
    const sender = await confirmSender(services(), request.params.token);
    return htmlPage(sender ? 200 : 404, sender ? renderConfirmedPage(sender.from_email) : renderInvalidLinkPage());
  },
});
