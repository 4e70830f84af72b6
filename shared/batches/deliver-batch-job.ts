import { getActivity, markFailed } from '../activity/activity-repository';
import type { Services } from '../container';
import { AppError } from '../errors';
import { failedEvent, hasWebhookTargets } from '../events/email-events';
import { getProject } from '../projects/project-repository';
import { deliverSend, type DeliveryOutcome } from '../sending/deliver-send';
import type { CounterBatch } from '../stats/domain-stats';
import { findTemplate } from '../templates/template-service';
import { batchActivityId } from './batch-ids';
import type { BatchSendJob, JobRecipient } from './batch-jobs';
import { composeBatchMail } from './batch-mail';
import type { BatchContentCache } from './batch-content-cache';
import { loadBatchContent } from './batch-repository';

/** Recipients of one job sent at once: SES and DynamoDB calls overlap, the worker stays within its timeout. */
const PARALLEL_RECIPIENTS = 10;

/**
 * Sends each recipient of a batch job as its own mail, through the single send's path: the
 * per-activity claim (so a redelivered job sends nobody twice), suppression, quota, SES, retries.
 * One recipient's failure does not stop the others: a mail that cannot be rendered fails alone,
 * and an unexpected error is thrown only after every recipient had its turn (the redelivery then
 * finds the sent ones claimed and skips them). `contents` keeps the batch's content across jobs.
 */
export async function deliverBatchJob(deps: Services, job: BatchSendJob, counters?: CounterBatch, contents?: BatchContentCache): Promise<DeliveryOutcome[]> {
  const content = await (contents ? contents.load(deps.blobs, job.project_id, job.batch_id) : loadBatchContent(deps.blobs, job.project_id, job.batch_id));
  const template = content.templateId ? await findTemplate(deps.db, job.project_id, content.templateId) : undefined;
  const secret = await deps.tokenSecret();
  const outcomes: DeliveryOutcome[] = [];
  const errors: unknown[] = [];

  const sendOne = async (recipient: JobRecipient): Promise<DeliveryOutcome> => {
    const activityId = batchActivityId(job.batch_id, recipient.index);
    if (content.templateId && !template) return failRecipient(deps, activityId, `Template ${content.templateId} no longer exists`);
    let payload;
    try {
      ({ payload } = composeBatchMail(deps, { content, template, recipient, activityId, projectId: job.project_id, secret }));
    } catch (error) {
      // Bad data for this one recipient (a template error, an empty render): this mail fails, not the job.
      if (error instanceof AppError && error.status < 500) return failRecipient(deps, activityId, error.message);
      throw error;
    }
    return deliverSend(deps, { v: 1, activity_id: activityId, project_id: job.project_id, attempt: 1, payload }, counters);
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

/** Fails one batch mail for good (`template_error`), emitting `email.failed` once. */
async function failRecipient(deps: Services, activityId: string, message: string): Promise<DeliveryOutcome> {
  const activity = await getActivity(deps.db, activityId, true);
  if (!activity) throw new Error(`Activity ${activityId} not found`);
  const failure = { error_code: 'template_error', error_message: message, permanent: true } as const;
  const now = deps.clock.now().toISOString();
  if (await markFailed(deps.db, activity, failure, now)) {
    const project = await getProject(deps.db, activity.project_id);
    if (project && hasWebhookTargets(project)) await deps.events.publish(failedEvent(activity, failure, now));
  }
  return 'failed';
}
