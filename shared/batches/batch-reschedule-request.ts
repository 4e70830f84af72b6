import { badRequest } from '../errors';

/** A valid `PATCH /v1/send-batch/:batchId` body: the new time as given, resolved by shared/scheduling. */
export interface BatchRescheduleInput {
  /** ISO 8601 or English, as `POST /v1/send-batch` takes it. */
  scheduledAt: string;
  timezone?: string;
}

/** Validates a batch's reschedule body; throws a 400 INVALID_INPUT with the first problem. */
export function parseBatchReschedule(body: unknown): BatchRescheduleInput {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof b.scheduled_at !== 'string' || b.scheduled_at.trim() === '') throw badRequest('Missing required fields: scheduled_at', 'INVALID_INPUT');
  if (b.timezone != null && typeof b.timezone !== 'string') throw badRequest('timezone must be a string', 'INVALID_INPUT');
  return { scheduledAt: b.scheduled_at, timezone: b.timezone as string | undefined };
}
