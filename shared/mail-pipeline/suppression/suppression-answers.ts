import * as z from '../../platform/core/zod';
import { boundedPaginationSchema, instantSchema } from '../../platform/http/answer-fields';

/** A suppression entry as part 2 shows it (presentSuppression): an entry listed is never removed. */
export const suppressionSchema = z
  .strictObject({
    email: z.string().check(z.meta({ format: 'email' })),
    reason: z.enum(['bounce', 'complaint', 'unsubscribe', 'manual']),
    source: z.string().check(z.meta({ description: 'What suppressed it: `ses` (bounce, complaint), `api`, or an unsubscribe (`one_click`, `page`)', examples: ['ses'] })),
    description: z.nullable(z.string()),
    bounce_type: z.nullable(z.string()),
    bounce_subtype: z.nullable(z.string()),
    complaint_feedback_type: z.nullable(z.string()),
    suppressed_at: instantSchema,
    removed_at: z.null().check(z.meta({ description: 'Always null: a removed address is no longer listed' })),
    removed_by: z.null(),
  })
  .check(z.meta({ id: 'Suppression', description: 'An address the project does not send to, and why' }));

/** A realistic entry, for the docs. */
export const suppressionExample = {
  email: 'bounced@example.com',
  reason: 'bounce',
  source: 'ses',
  description: 'smtp; 550 5.1.1 user unknown',
  bounce_type: 'Permanent',
  bounce_subtype: 'General',
  complaint_feedback_type: null,
  suppressed_at: '2026-11-24T08:12:45.000Z',
  removed_at: null,
  removed_by: null,
};

/** The answer of `GET /v1/suppressions`. */
export const suppressionListAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(suppressionSchema),
  pagination: boundedPaginationSchema('SuppressionPagination'),
});

/** The answer of `GET /v1/suppressions/{email}`. */
export const suppressionAnswerSchema = z.strictObject({ success: z.literal(true), data: suppressionSchema });

/** The answer of `POST /v1/suppressions`: the addresses added, and those already listed (lowercased). */
export const suppressionsAddedAnswerSchema = z.strictObject({
  success: z.literal(true),
  added: z.array(z.string()),
  already: z.array(z.string()).check(z.meta({ description: 'Addresses that were already suppressed (left as they were)' })),
});

/** The answer of `POST /v1/suppressions/remove`: the addresses removed, and those that were not listed. */
export const suppressionsRemovedAnswerSchema = z.strictObject({
  success: z.literal(true),
  removed: z.array(z.string()),
  not_found: z.array(z.string()),
});

/** The answer of `DELETE /v1/suppressions/{email}`. */
export const suppressionRemovedAnswerSchema = z.strictObject({ success: z.literal(true), email: z.string(), removed: z.literal(true) });
