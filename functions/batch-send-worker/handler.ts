import { sendWorkerScope } from '../../composition/worker-scopes/send-workers';
import { BatchContentCache } from '../../shared/mail-pipeline/batches/batch-content-cache';
import { deliverBatchJob } from '../../shared/mail-pipeline/batches/deliver-batch-job';
import { parseBatchSendJob } from '../../shared/mail-pipeline/batches/batch-jobs';
import { campaignGate } from '../../shared/marketing/campaigns/campaign-gate';
import { sqsBatchHandler } from '../../shared/platform/queue-worker/batch-handler';

/** Lives as long as the warm instance: the jobs of one batch read its content from S3 once. */
const contents = new BatchContentCache();

/**
 * Worker of the `batch-send` queue: sends every recipient of each job on its own, at most once, and
 * counts what was sent; a campaign wave's job is checked against its campaign first (cancel, pause).
 */
export const handler = sqsBatchHandler(async (record, batch) => {
  const job = parseBatchSendJob(record.body);
  const outcomes = await deliverBatchJob(batch.deps, job, batch.counters, contents, campaignGate(batch.deps, batch.campaigns));
  batch.metrics.add(job.project_id, 'Failed', outcomes.filter((o) => o === 'failed').length);
}, sendWorkerScope);
