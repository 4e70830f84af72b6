import { randomUUID } from 'node:crypto';

/**
 * Batch and activity ids. A batch id is a random UUID whose last four hex digits are zero; the
 * activity of recipient i is the same UUID with version 8 (RFC 9562, custom) and i in those four
 * digits. So every activity id of a batch names its batch and its place in it: the API returns
 * 10,000 ids without writing 10,000 items, and `GET /v1/activity/:id` can answer before the
 * fan-out has written the record (docs/decisions.md, "Batch sends").
 */

/** Recipients a batch may hold; i fits the four hex digits. */
export const MAX_BATCH_RECIPIENTS = 10_000;

const BATCH_ACTIVITY = /^([0-9a-f]{8}-[0-9a-f]{4}-)8([0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{8})([0-9a-f]{4})$/;

/** A new batch id. */
export function newBatchId(): string {
  return `${randomUUID().slice(0, 32)}0000`;
}

/** The activity id of recipient `index` of batch `batchId`. */
export function batchActivityId(batchId: string, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= MAX_BATCH_RECIPIENTS) throw new RangeError(`Recipient index ${index} is out of range`);
  return `${batchId.slice(0, 14)}8${batchId.slice(15, 32)}${index.toString(16).padStart(4, '0')}`;
}

/** The batch and index an activity id names, or undefined for an activity that is not of a batch. */
export function batchOfActivity(activityId: string): { batchId: string; index: number } | undefined {
  const match = BATCH_ACTIVITY.exec(activityId.toLowerCase());
  if (!match) return undefined;
  const index = parseInt(match[3], 16);
  if (index >= MAX_BATCH_RECIPIENTS) return undefined;
  return { batchId: `${match[1]}4${match[2]}0000`, index };
}
