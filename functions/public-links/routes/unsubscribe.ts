import { withUnsubscribeCounters } from '../../../composition/request-scopes/unsubscribe';
import { services } from '../../../composition/services';
import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { renderUnsubscribedPage } from '../../../shared/mail-pipeline/unsubscribe/unsubscribe-pages';
import { unsubscribe as suppressTarget, unsubscribeTarget } from '../../../shared/mail-pipeline/unsubscribe/unsubscribe-service';
import { guarded, invalidLink, linkPage } from './link-pages';
import { unsubscribeAccess } from './links-access';

/** RFC 8058 one-click: a POST whose (form-encoded) body is `List-Unsubscribe=One-Click`. */
function isOneClick(body: string | undefined): boolean {
  return typeof body === 'string' && /(^|&)List-Unsubscribe=One-Click(&|$)/.test(body.trim());
}

/** `POST /u/{token}`: unsubscribes. Mail clients post here without a person (RFC 8058), and the page's button posts here too. */
export const unsubscribe = defineRoute({
  method: 'POST',
  path: '/u/{token}',
  auth: 'public',
  throttle: 'links',
  summary: 'Unsubscribe (RFC 8058 one-click)',
  description: 'A body of `List-Unsubscribe=One-Click` (form-encoded) is a mail client\'s one-click unsubscribe; any other is the page\'s button.',
  answers: {
    200: htmlPage('Unsubscribed: the page confirming it'),
    404: htmlPage('The link is not valid'),
    500: htmlPage('The unsubscribe could not be done right now'),
  },
  access: unsubscribeAccess,
  handle: (request) =>
    guarded(request.requestId, 'Unsubscribe', async () => {
      const target = await unsubscribeTarget(services(), request.params.token);
      if (!target) return invalidLink();
      await withUnsubscribeCounters(services(), ({ campaigns }) => suppressTarget(services(), target, isOneClick(request.body) ? 'one_click' : 'page', campaigns));
      return linkPage(200, (nonce) => renderUnsubscribedPage(target.email, nonce));
    }),
});
