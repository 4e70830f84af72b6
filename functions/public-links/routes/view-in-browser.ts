import { services } from '../../../composition/services';
import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { viewHeaders } from '../../../shared/mail-pipeline/unsubscribe/unsubscribe-pages';
import { viewInBrowser as renderedMail } from '../../../shared/mail-pipeline/unsubscribe/unsubscribe-service';
import { guarded, invalidLink } from './link-pages';
import { linksReadAccess } from './links-access';

/** `GET /v/{token}`: the mail the token names, as a page. */
export const viewInBrowser = defineRoute({
  method: 'GET',
  path: '/v/{token}',
  auth: 'public',
  throttle: 'links',
  summary: 'View in browser',
  answers: {
    200: htmlPage('The mail\'s HTML, with no script, form or framing'),
    404: htmlPage('The link is not valid'),
    500: htmlPage('The mail could not be shown right now'),
  },
  access: linksReadAccess,
  handle: (request) =>
    guarded(request.requestId, 'View in browser', async () => {
      const html = await renderedMail(services(), request.params.token);
      if (html === undefined) return invalidLink();
      return { status: 200, headers: viewHeaders(), body: html };
    }),
});
