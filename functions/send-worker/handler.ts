import { CampaignCounterBatch } from '../../shared/campaigns/campaign-counters';
import { campaignGate } from '../../shared/campaigns/campaign-gate';
import { services } from '../../shared/container';
import { sqsBatchHandler } from '../../shared/queue-worker/batch-handler';
import { deliverSend } from '../../shared/sending/deliver-send';
import { parseSendJob } from '../../shared/sending/send-job';
import { flushCounters } from '../../shared/stats/counter-flush';
import { CounterBatch } from '../../shared/stats/domain-stats';

/** Send worker: hands each queued activity to SES, at most once, and counts what was sent per batch (a campaign mail's retry counts for its campaign). */
export const handler = sqsBatchHandler((record, batch) => deliverSend(batch.deps, parseSendJob(record.body), batch.counters, campaignGate(batch.deps, batch.campaigns)), {
  start: () => ({ deps: services(), counters: new CounterBatch(), campaigns: new CampaignCounterBatch() }),
  finish: async ({ deps, counters, campaigns }) => {
    await flushCounters(deps, counters);
    await campaigns.flush(deps.db);
  },
});
