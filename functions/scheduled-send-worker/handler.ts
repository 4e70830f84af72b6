import { services } from '../../shared/container';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { fireScheduledSend } from '../../shared/scheduling/fire-scheduled-send';
import { parseFireMessage } from '../../shared/scheduling/scheduled-send-fire-message';
import { sendScheduledNow } from '../../shared/sending/advanced-send';

/** Worker of the `scheduled` queue: fires each scheduled send at its time, at most once. */
export const handler = sqsBatchHandler((record) => fireScheduledSend(services(), parseFireMessage(record.body), record.messageId, sendScheduledNow));
