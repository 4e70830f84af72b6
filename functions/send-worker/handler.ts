import { services } from '../../shared/container';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { deliverSend } from '../../shared/sending/deliver-send';
import { parseSendJob } from '../../shared/sending/send-job';
import { tokenSecret } from '../../shared/secrets';

/** Send worker: hands each queued activity to SES, at most once. */
export const handler = sqsBatchHandler(async (record) => {
  await deliverSend(services(), parseSendJob(record.body), await tokenSecret());
});
