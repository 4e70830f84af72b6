import { groupRoutes } from '../../../shared/platform/http/route';
import { cancelScheduledSend } from './cancel-scheduled-send';
import { listScheduledSends } from './list-scheduled-sends';
import { readScheduledSend } from './read-scheduled-send';
import { rescheduleScheduledSend } from './reschedule-scheduled-send';

/** Endpoint group `scheduled-sends`: list the project's scheduled sends; read, reschedule and cancel one (4.6). */
export const scheduledSendsRoutes = groupRoutes('scheduled-sends', [listScheduledSends, readScheduledSend, rescheduleScheduledSend, cancelScheduledSend]);
