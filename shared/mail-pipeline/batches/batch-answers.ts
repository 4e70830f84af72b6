import * as z from '../../platform/core/zod';
import { boundedPaginationSchema, instantSchema, uuidSchema } from '../../platform/http/answer-fields';

/** Where a scheduled batch goes out: the instant, the wall time in its zone, and the zone. */
const scheduleFields = {
  scheduled_for: instantSchema,
  scheduled_for_local: z.string().check(z.meta({ examples: ['2026-11-27 09:00'] })),
  timezone: z.string().check(z.meta({ examples: ['Europe/London'] })),
};
const optionalSchedule = {
  scheduled_for: z.optional(scheduleFields.scheduled_for),
  scheduled_for_local: z.optional(scheduleFields.scheduled_for_local),
  timezone: z.optional(scheduleFields.timezone),
};
/** Custom headers given but not applied (only the unsubscribe pair is). */
const ignoredHeaders = { ignored_custom_headers: z.optional(z.array(z.string())) };

/** The answers of `POST /v1/send-batch` (4.3): accepted (queued now or scheduled), or a dry run. */
export const batchAcceptedSchema = z
  .union([
    z.strictObject({
      success: z.literal(true),
      message: z.string(),
      batch_id: uuidSchema,
      status: z.enum(['sending', 'scheduled']),
      ...optionalSchedule,
      counts: z.strictObject({ requested: z.number(), accepted: z.number(), duplicates_removed: z.number() }),
      recipients: z
        .array(z.strictObject({ email: z.string(), activity_id: uuidSchema }))
        .check(z.meta({ description: 'Every accepted recipient, in the request\'s order, with the id of its activity record' })),
      ...ignoredHeaders,
    }),
    z.strictObject({
      success: z.literal(true),
      dry_run: z.literal(true),
      test_mode: z.boolean(),
      from: z.string(),
      template_id: z.nullable(uuidSchema),
      variables_used: z.array(z.string()),
      counts: z.strictObject({ requested: z.number(), valid: z.number(), duplicates_removed: z.number(), suppressed: z.number(), would_send: z.number() }),
      previews: z.array(z.strictObject({ to: z.string(), subject: z.string(), html_preview: z.string(), suppressed: z.boolean() })),
      ...optionalSchedule,
      ...ignoredHeaders,
    }),
  ])
  .check(z.meta({ id: 'BatchAccepted', description: 'The batch is accepted (queued now or scheduled), with every recipient\'s activity id; or a dry run (nothing written)' }));

/** The answer of `GET /v1/send-batch/{batchId}` (4.4): a batch that has not gone out. */
export const batchSchema = z
  .strictObject({
    success: z.literal(true),
    batch_id: uuidSchema,
    status: z.enum(['scheduled', 'cancelled']),
    scheduled_for: z.nullable(instantSchema),
    timezone: z.nullable(z.string()),
    created_at: instantSchema,
    recipients: z.number().check(z.meta({ description: 'Recipients accepted (after deduplication)' })),
    duplicates_removed: z.number(),
    counts: z.strictObject({ queued: z.number(), cancelled: z.number() }).check(z.meta({ description: 'Mails by state: all queued until the batch goes out, all cancelled after a cancel' })),
  })
  .check(z.meta({ id: 'Batch', description: 'A scheduled (or cancelled) batch: its time, recipients and counts by state' }));

/**
 * A batch in `GET /v1/send-batch`: the fields of `Batch` without `success`, in every status, with
 * the fan-out's counts (a batch that went out has suppressed and failed mails too).
 */
export const batchSummarySchema = z
  .strictObject({
    batch_id: uuidSchema,
    status: z.enum(['scheduled', 'sending', 'sent', 'cancelled']).check(z.meta({ description: '`sending` while its recipients\' records and jobs are written, `sent` once every mail is queued' })),
    scheduled_for: z.nullable(instantSchema).check(z.meta({ description: 'Null for a batch sent at once' })),
    timezone: z.nullable(z.string()),
    created_at: instantSchema,
    recipients: z.number().check(z.meta({ description: 'Recipients accepted (after deduplication)' })),
    duplicates_removed: z.number(),
    counts: z
      .strictObject({ queued: z.number(), suppressed: z.number(), cancelled: z.number(), failed: z.number() })
      .check(z.meta({ description: 'Mails by state: all queued while scheduled, all cancelled once cancelled; once it goes out, what its fan-out has found so far (each mail\'s outcome is in the activity list)' })),
  })
  .check(z.meta({ id: 'BatchSummary', description: 'A batch sent through `POST /send-batch`: its status, time, recipients and counts by state' }));

/** The answer of `GET /v1/send-batch`: a page of the project's batches. */
export const batchListAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(batchSummarySchema),
  pagination: boundedPaginationSchema('BatchPagination'),
});

/** The answer of `PATCH /v1/send-batch/{batchId}` (4.4). */
export const batchRescheduledSchema = z
  .strictObject({ success: z.literal(true), batch_id: uuidSchema, rescheduled: z.number(), ...scheduleFields })
  .check(z.meta({ id: 'BatchRescheduled', description: 'The batch moved: `rescheduled` mails now go out at the new time' }));

/** The answer of `DELETE /v1/send-batch/{batchId}` (4.4). */
export const batchCancelledSchema = z
  .strictObject({ success: z.literal(true), batch_id: uuidSchema, cancelled: z.number(), activities_updated: z.number() })
  .check(z.meta({ id: 'BatchCancelled', description: 'The batch is cancelled: `cancelled` mails will not go out; `activities_updated` records are marked `cancelled`' }));
