import { services, type Services } from '../../shared/container';
import type { SendingDomain } from '../../shared/domains/domain';
import { findVerificationPage, getDomain } from '../../shared/domains/domain-repository';
import { checkDomain } from '../../shared/domains/domain-service';
import { notFound } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import type { ApiRequest, ApiResult } from '../../shared/http/api-types';
import { logger } from '../../shared/logger';
import {
  PAGE_TOKEN,
  newNonce,
  pageHeaders,
  pageView,
  renderErrorPage,
  renderNotFoundPage,
  renderVerificationPage,
  verifyResult,
} from '../../shared/pages/verification-page';

/**
 * The domain a page token points at, or undefined. The token must be well formed, its lookup must
 * exist, and the domain must still carry this very token (a domain deleted and registered again
 * gets a new one, so an old link does not come back to life).
 */
async function domainOfToken(deps: Services, token: string | undefined): Promise<SendingDomain | undefined> {
  if (!token || !PAGE_TOKEN.test(token)) return undefined;
  const page = await findVerificationPage(deps.db, token);
  if (!page) return undefined;
  const domain = await getDomain(deps.db, page.project_id, page.domain, true);
  return domain && domain.verification_page_token === token ? domain : undefined;
}

function html(status: number, render: (nonce: string) => string): ApiResult {
  const nonce = newNonce();
  return { status, headers: pageHeaders(nonce), body: render(nonce) };
}

/** Endpoint group `pages`: public pages reached by unguessable tokens (no account). */
export const handler = apiHandler('pages', {
  'GET /verify/{token}': async (request: ApiRequest) => {
    try {
      const domain = await domainOfToken(services(), request.params.token);
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
    const deps = services();
    const domain = await domainOfToken(deps, request.params.token);
    if (!domain) throw notFound('This verification link is not valid');
    const checked = await checkDomain(deps, domain.project_id, domain.domain, { resetSpfAndDmarc: true });
    return { status: 200, headers: { 'cache-control': 'no-store' }, body: verifyResult(checked) };
  },
});
