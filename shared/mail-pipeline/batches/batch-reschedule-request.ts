import * as z from '../../platform/core/zod';
import { badRequest } from '../../platform/core/errors';
import { parseRequest } from '../../platform/core/validate';

/** A valid `PATCH /v1/send-batch/:batchId` body: the new time as given, resolved by shared/mail-pipeline/scheduling. */
export interface BatchRescheduleInput {
  /** ISO 8601 or English, as `POST /v1/send-batch` takes it. */
  scheduledAt: string;
  /** An IANA zone for an English or zone-less time; null reads as absent. */
  timezone?: string | null;
}

const MISSING = 'Missing required fields: scheduled_at';

/**
 * The body of `PATCH /v1/send-batch/:batchId`: `scheduled_at` as on `POST /v1/send-batch` (its
 * meaning is checked when it is resolved), an optional `timezone`. A body that is no object reads
 * as one without `scheduled_at`.
 */
export const batchRescheduleBodySchema = z.object(
  {
    scheduled_at: z.string({ error: MISSING }).check(z.refine((v) => v.trim() !== '', MISSING)),
    timezone: z.nullish(z.string({ error: 'timezone must be a string' })),
  },
  { error: MISSING },
);

/** A reschedule body's refusal: 400 with the code INVALID_INPUT. */
export const refuseBatchReschedule = (message: string) => badRequest(message, 'INVALID_INPUT');

/** Validates a batch's reschedule body; throws a 400 INVALID_INPUT with the first problem. */
export function parseBatchReschedule(body: unknown): BatchRescheduleInput {
  return toBatchReschedule(parseRequest(batchRescheduleBodySchema, body, refuseBatchReschedule));
}

/** A body `batchRescheduleBodySchema` accepted, as the batch service takes it. */
export function toBatchReschedule(b: z.output<typeof batchRescheduleBodySchema>): BatchRescheduleInput {
  return { scheduledAt: b.scheduled_at, timezone: b.timezone };
}
