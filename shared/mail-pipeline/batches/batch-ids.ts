/**
 * Batch and activity ids, for the batches' code: the format lives with the activity, whose
 * presenter derives a batch mail's `batch_id` from its id (activity/batch-activity-ids.ts).
 */
export { MAX_BATCH_RECIPIENTS, batchActivityId, batchOfActivity, newBatchId } from '../activity/batch-activity-ids';
