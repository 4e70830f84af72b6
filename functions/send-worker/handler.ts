import { sendWorkerScope } from '../../composition/worker-scopes/send-workers';
import { campaignGate } from '../../shared/marketing/campaigns/campaign-gate';
import { deliverMail, parseSendJob } from '../../shared/mail-pipeline';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** Send worker: hands each queued activity to SES, at most once, and counts what was sent per batch (a campaign mail's retry counts for its campaign). */
export const handler = sqsBatchHandler(async (record, batch) => {
  const job = parseSendJob(record.body);
  if ((await deliverMail(batch.deps, job, batch.counters, campaignGate(batch.deps, batch.campaigns))) === 'failed') batch.metrics.add(job.project_id, 'Failed');
}, sendWorkerScope);
