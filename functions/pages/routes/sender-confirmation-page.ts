import { services } from '../../../composition/services';
import { senderOfConfirmationLink } from '../../../shared/identities/domains/sender-service';
import { htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { renderConfirmPage, renderInvalidLinkPage } from '../../../shared/identities/pages/sender-confirmation-page';
import { pageAnswer } from './html-answer';
import { readPage } from './page-access';

/**
 * `GET /senders/confirm/{token}`: a project's own sender-confirmation link shows a button; only its
 * POST confirms (mail scanners open links; they do not submit forms).
 */
export const senderConfirmationPage = defineRoute({
  method: 'GET',
  path: '/senders/confirm/{token}',
  auth: 'public',
  throttle: 'verify',
  summary: 'Sender confirmation page',
  answers: {
    200: htmlPage('The address to confirm, and the button that confirms it'),
    404: htmlPage('The link is not valid (unknown, replaced by a newer request, failed or expired)'),
  },
  access: readPage,
  handle: async (request) => {
    const sender = await senderOfConfirmationLink(services(), request.params.token);
    return sender ? pageAnswer(200, renderConfirmPage(sender.from_email)) : pageAnswer(404, renderInvalidLinkPage());
  },
});
