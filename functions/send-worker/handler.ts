import { services } from '../../shared/container';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { deliverSend } from '../../shared/sending/deliver-send';
import { parseSendJob } from '../../shared/sending/send-job';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';

/** Send worker: hands each queued activity to SES, at most once, and counts what was sent per batch. */
export const handler = sqsBatchHandler((record, batch) => deliverSend(batch.deps, parseSendJob(record.body), batch.counters), {
  start: () => ({ deps: services(), counters: new CounterBatch() }),
  finish: ({ deps, counters }) => flushCounters(deps, counters),
});
