import { groupRoutes } from '../../../shared/platform/http/route';
import { advancedSend } from './advanced-send';
import { sendEmail } from './send-email';
import { sendTemplateEmail } from './send-template-email';

/** Endpoint group `send`: single sends (4.1, 4.2, 4.5). */
export const sendRoutes = groupRoutes('send', [sendEmail, sendTemplateEmail, advancedSend]);
