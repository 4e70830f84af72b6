import { groupRoutes } from '../../../shared/platform/http/route';
import { confirmSender } from './confirm-sender';
import { senderConfirmationPage } from './sender-confirmation-page';
import { verificationPage } from './verification-page';
import { verifyByPage } from './verify-by-page';

/** Endpoint group `pages`: public pages reached by unguessable tokens (no account). */
export const pagesRoutes = groupRoutes('pages', [verificationPage, verifyByPage, senderConfirmationPage, confirmSender]);
