import { services } from '../../../composition/services';
import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { renderUnsubscribePage } from '../../../shared/mail-pipeline/unsubscribe/unsubscribe-pages';
import { unsubscribeTarget } from '../../../shared/mail-pipeline/unsubscribe/unsubscribe-service';
import { guarded, invalidLink, linkPage } from './link-pages';
import { linksReadAccess } from './links-access';

/** `GET /u/{token}`: the page that asks to confirm the unsubscribe (its button posts to the same path). */
export const unsubscribePage = defineRoute({
  method: 'GET',
  path: '/u/{token}',
  auth: 'public',
  throttle: 'links',
  summary: 'Unsubscribe page',
  answers: {
    200: htmlPage('The page naming the address, with a button that unsubscribes it'),
    404: htmlPage('The link is not valid'),
    500: htmlPage('The page could not be shown right now'),
  },
  access: linksReadAccess,
  handle: (request) =>
    guarded(request.requestId, 'Unsubscribe page', async () => {
      const target = await unsubscribeTarget(services(), request.params.token);
      if (!target) return invalidLink();
      return linkPage(200, (nonce) => renderUnsubscribePage(target.email, nonce));
    }),
});
