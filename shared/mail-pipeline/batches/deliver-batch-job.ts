import { getActivity, transitionFromSendable } from '../activity/activity-repository';
import { AppError } from '../../platform/core/errors';
import { deliverMail, failUnrenderable, type CampaignHooks, type DeliverDeps, type DeliveryOutcome } from '..';
import type { Needs } from '../../platform/core/dependencies';
import type { CounterBatch } from '../../identities/stats/domain-stats';
import { findTemplate } from '../templates/template-service';
import { batchActivityId } from './batch-ids';
import type { BatchSendJob, JobRecipient } from './batch-jobs';
import { composeBatchMail } from './batch-mail';
import type { BatchContentCache } from './batch-content-cache';
import { loadBatchContent } from './batch-repository';

/**
 * A campaign's say over its wave's jobs (shared/marketing/campaigns/campaign-gate.ts, given by the worker):
 * checked once per job; `cancel` marks the job's mails cancelled, `hold` keeps the job until resume.
 */
export interface WaveControl extends CampaignHooks {
  decide(projectId: string, campaignId: string): Promise<'send' | 'cancel' | 'hold'>;
  hold(job: BatchSendJob): Promise<void>;
}

/** Recipients of one job sent at once: SES and DynamoDB calls overlap, the worker stays within its timeout. */
const PARALLEL_RECIPIENTS = 10;

/**
 * The batch-send worker's producer step: renders each recipient of a batch job into its mail and
 * hands it to the pipeline's one deliverer (deliverMail), as attempt 1 of its activity; a retry
 * goes on through the pipeline's one retry path like any mail's: the same per-activity claim (so
a redelivered job sends nobody twice), suppression, quota, SES and backoff as every other mail.
 * One recipient's failure does not stop the others: a mail that cannot be rendered fails alone,
 * and an unexpected error is thrown only after every recipient had its turn (the redelivery then
 * finds the sent ones claimed and skips them). `contents` keeps the batch's content across jobs.
 */
export async function deliverBatchJob(deps: DeliverDeps, job: BatchSendJob, counters?: CounterBatch, contents?: BatchContentCache, control?: WaveControl): Promise<DeliveryOutcome[]> {
  if (job.campaign_id && control) {
    const decision = await control.decide(job.project_id, job.campaign_id);
    if (decision === 'hold') {
      await control.hold(job);
      return [];
    }
    if (decision === 'cancel') return cancelJob(deps, job, job.campaign_id, control);
  }
  const content = await (contents ? contents.load(deps.blobs, job.project_id, job.batch_id) : loadBatchContent(deps.blobs, job.project_id, job.batch_id));
  const template = content.templateId ? await findTemplate(deps.db, job.project_id, content.templateId) : undefined;
  const secret = await deps.tokenSecret();
  const outcomes: DeliveryOutcome[] = [];
  const errors: unknown[] = [];

  const sendOne = async (recipient: JobRecipient): Promise<DeliveryOutcome> => {
    const activityId = batchActivityId(job.batch_id, recipient.index);
    if (content.templateId && !template) return failUnrenderable(deps, activityId, `Template ${content.templateId} no longer exists`, control);
    let payload;
    try {
      ({ payload } = composeBatchMail(deps, { content, template, recipient, activityId, projectId: job.project_id, secret }));
    } catch (error) {
      // Bad data for this one recipient (a template error, an empty render): this mail fails, not the job.
      if (error instanceof AppError && error.status < 500) return failUnrenderable(deps, activityId, error.message, control);
      throw error;
    }
    try {
      return await deliverMail(deps, { v: 1, activity_id: activityId, project_id: job.project_id, attempt: 1, payload }, counters, control);
    } catch (error) {
      // The claim stores the rendered mail: one this recipient's data makes too large to store can never be sent.
      if (isItemTooLarge(error)) return failUnrenderable(deps, activityId, 'The rendered mail is too large to store and send (more than 400 KB compressed)', control);
      throw error;
    }
  };

  for (let i = 0; i < job.recipients.length; i += PARALLEL_RECIPIENTS) {
    const results = await Promise.allSettled(job.recipients.slice(i, i + PARALLEL_RECIPIENTS).map(sendOne));
    for (const result of results) {
      if (result.status === 'fulfilled') outcomes.push(result.value);
      else errors.push(result.reason);
    }
  }
  if (errors.length > 0) {
    throw new AggregateError(errors, `${errors.length} of ${job.recipients.length} recipients of batch ${job.batch_id} must be retried`);
  }
  return outcomes;
}

/** True for DynamoDB's refusal of an item over its 400 KB size (a ValidationException, which no retry changes). */
function isItemTooLarge(error: unknown): boolean {
  const e = error as { name?: string; message?: string } | null;
  return e?.name === 'ValidationException' && /item size/i.test(e.message ?? '');
}

/**
 * A cancelled campaign's job: each mail still sendable becomes `cancelled` (once: the transition is
 * conditional) and is counted; none is sent. Mails already handed to SES are left as they are.
 */
async function cancelJob(deps: Needs<'db' | 'clock'>, job: BatchSendJob, campaignId: string, campaign: CampaignHooks): Promise<DeliveryOutcome[]> {
  const now = deps.clock.now().toISOString();
  const outcomes = await Promise.all(
    job.recipients.map(async (recipient): Promise<DeliveryOutcome> => {
      const activity = await getActivity(deps.db, batchActivityId(job.batch_id, recipient.index), true);
      if (activity && (await transitionFromSendable(deps.db, activity, 'cancelled', { updated_at: now }))) {
        campaign.count(campaignId, 'cancelled');
      }
      return 'skipped';
    }),
  );
  return outcomes;
}
