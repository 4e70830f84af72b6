import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { flushCampaignCounters } from '../../shared/campaigns/campaign-counter-flush';
import { services } from '../../shared/container';
import { apiHandler } from '../../shared/http/api-handler';
import type { ApiRequest, ApiResult } from '../../shared/http/api-types';
import { logger } from '../../shared/logger';
import { newNonce } from '../../shared/pages/page-headers';
import {
  linkPageHeaders,
  renderInvalidLinkPage,
  renderLinkErrorPage,
  renderUnsubscribePage,
  renderUnsubscribedPage,
  viewHeaders,
} from '../../shared/unsubscribe/unsubscribe-pages';
import { unsubscribe, unsubscribeTarget, viewInBrowser } from '../../shared/unsubscribe/unsubscribe-service';

function page(status: number, render: (nonce: string) => string): ApiResult {
  const nonce = newNonce();
  return { status, headers: linkPageHeaders(nonce), body: render(nonce) };
}

const invalid = (): ApiResult => page(404, renderInvalidLinkPage);

/** A page, not an API: the visitor gets an HTML error page, the log gets the error. */
async function guarded(request: ApiRequest, what: string, run: () => Promise<ApiResult>): Promise<ApiResult> {
  try {
    return await run();
  } catch (error) {
    logger.error(`${what} failed`, { requestId: request.requestId, error: error as Error });
    return page(500, renderLinkErrorPage);
  }
}

/** RFC 8058 one-click: a POST whose (form-encoded) body is `List-Unsubscribe=One-Click`. */
function isOneClick(body: unknown): boolean {
  return typeof body === 'string' && /(^|&)List-Unsubscribe=One-Click(&|$)/.test(body.trim());
}

/** Endpoint group `links`: the unsubscribe and view-in-browser pages reached by signed tokens. */
export const handler = apiHandler('links', {
  'GET /u/{token}': (request) =>
    guarded(request, 'Unsubscribe page', async () => {
      const target = await unsubscribeTarget(services(), request.params.token);
      if (!target) return invalid();
      return page(200, (nonce) => renderUnsubscribePage(target.email, nonce));
    }),

  // Mail clients post here without a person (RFC 8058), and the page's button posts here too.
  'POST /u/{token}': (request) =>
    guarded(request, 'Unsubscribe', async () => {
      const target = await unsubscribeTarget(services(), request.params.token);
      if (!target) return invalid();
      const campaigns = new CampaignCounterBatch();
      await unsubscribe(services(), target, isOneClick(request.body) ? 'one_click' : 'page', campaigns);
      await flushCampaignCounters(services(), campaigns);
      return page(200, (nonce) => renderUnsubscribedPage(target.email, nonce));
    }),

  'GET /v/{token}': (request) =>
    guarded(request, 'View in browser', async () => {
      const html = await viewInBrowser(services(), request.params.token);
      if (html === undefined) return invalid();
      return { status: 200, headers: viewHeaders(), body: html };
    }),
});
