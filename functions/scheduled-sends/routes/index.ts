import { groupRoutes } from '../../../shared/http/route';
import { cancelScheduledSend } from './cancel-scheduled-send';
import { readScheduledSend } from './read-scheduled-send';
import { rescheduleScheduledSend } from './reschedule-scheduled-send';

/** Endpoint group `scheduled-sends`: read, reschedule and cancel a scheduled send (4.6). */
export const scheduledSendsRoutes = groupRoutes('scheduled-sends', [readScheduledSend, rescheduleScheduledSend, cancelScheduledSend]);
