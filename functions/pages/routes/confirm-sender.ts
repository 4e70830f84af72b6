import { services } from '../../../composition/services';
import { confirmSender as confirm } from '../../../shared/identities/domains/sender-service';
import { errors, htmlPage } from '../../../shared/platform/http/answers';
import { defineRoute } from '../../../shared/platform/http/route';
import { renderConfirmedPage, renderInvalidLinkPage } from '../../../shared/identities/pages/sender-confirmation-page';
import { pageAnswer } from './html-answer';

/** `POST /senders/confirm/{token}`: the mailbox owner confirms; the sender becomes verified for that project (`sender.verified`). */
export const confirmSender = defineRoute({
  method: 'POST',
  path: '/senders/confirm/{token}',
  auth: 'public',
  throttle: 'verify',
  summary: 'Confirm a sender',
  answers: {
    200: htmlPage('Confirmed (or confirmed before)'),
    404: htmlPage('The link is not valid (unknown, replaced by a newer request, failed or expired)'),
    ...errors('public', { 409: 'Confirmations raced (SENDER_BUSY)' }),
  },
  // Writes the sender and publishes `sender.verified`. sender-service.ts also holds the scheduled
  // check's confirmation mail (SERVICE_NAME) and the link's base URL (TRACKING_BASE_URL).
  access: { table: 'readWrite', enqueue: ['events'], settings: ['SERVICE_NAME', 'TRACKING_BASE_URL'] },
  handle: async (request) => {
    const sender = await confirm(services(), request.params.token);
    return sender ? pageAnswer(200, renderConfirmedPage(sender.from_email)) : pageAnswer(404, renderInvalidLinkPage());
  },
});
