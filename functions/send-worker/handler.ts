import type { SQSEvent } from 'aws-lambda';
import { services } from '../../shared/container';
import { logger } from '../../shared/logger';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { deliverSend } from '../../shared/sending/deliver-send';
import { parseSendJob } from '../../shared/sending/send-job';
import { tokenSecret } from '../../shared/secrets';
import { CounterBatch } from '../../shared/stats/domain-stats';
import { ttlAfterDays } from '../../shared/store/client';

/** Counters are kept for a little over a year, enough for any statistics period. */
const COUNTER_RETENTION_DAYS = 400;

/** Send worker: hands each queued activity to SES, at most once, and counts what was sent per batch. */
export const handler = async (event: SQSEvent) => {
  const deps = services();
  const counters = new CounterBatch();
  const result = await sqsBatchHandler(async (record) => {
    await deliverSend(deps, parseSendJob(record.body), await tokenSecret(), counters);
  })(event);
  // The mails are out whatever happens here; a lost increment only makes the statistics a little low.
  await counters.flush(deps.db, ttlAfterDays(deps.clock.now(), COUNTER_RETENTION_DAYS)).catch((error) => logger.error('Counter flush failed', { error }));
  return result;
};
