import { fireScheduledBatch, isBatchFire } from '../../shared/mail-pipeline/batches/fire-scheduled-batch';
import { services } from '../../composition/services';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';
import { fireScheduledSend } from '../../shared/mail-pipeline/scheduling/fire-scheduled-send';
import { parseFireMessage } from '../../shared/mail-pipeline';
import { sendScheduledNow } from '../../shared/mail-pipeline/sending/advanced-send';

/** Worker of the `scheduled` queue: fires each scheduled send, and each scheduled batch, at its time, at most once. */
export const handler = sqsBatchHandler((record) => {
  const message = parseFireMessage(record.body);
  return isBatchFire(message) ? fireScheduledBatch(services(), message) : fireScheduledSend(services(), message, record.messageId, sendScheduledNow);
});
