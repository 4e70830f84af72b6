import type { SQSEvent } from 'aws-lambda';
import { services } from '../../shared/container';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { deliverSend } from '../../shared/sending/deliver-send';
import { parseSendJob } from '../../shared/sending/send-job';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';

/** Send worker: hands each queued activity to SES, at most once, and counts what was sent per batch. */
export const handler = async (event: SQSEvent) => {
  const deps = services();
  const counters = new CounterBatch();
  const result = await sqsBatchHandler(async (record) => {
    await deliverSend(deps, parseSendJob(record.body), counters);
  })(event);
  await flushCounters(deps, counters);
  return result;
};
