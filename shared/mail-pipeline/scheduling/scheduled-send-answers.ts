import * as z from '../../platform/core/zod';
import { boundedPaginationSchema, instantSchema, uuidSchema } from '../../platform/http/answer-fields';

/** The statuses part 3 gives a scheduled send. */
export const scheduledSendStatusSchema = z.enum(['pending', 'processing', 'sent', 'failed', 'cancelled']);

/** The scheduled send resource (part 2) as presentScheduledSend builds it. */
export const scheduledSendSchema = z
  .strictObject({
    id: uuidSchema,
    status: scheduledSendStatusSchema,
    scheduled_for: instantSchema,
    timezone: z.string().check(z.meta({ description: 'An IANA zone, or an offset label such as `UTC+9` when the time came with an offset', examples: ['Europe/London'] })),
    recipient_email: z.string(),
    sender_email: z.string(),
    subject: z.nullable(z.string()).check(z.meta({ description: 'Null when a template gives the subject' })),
    created_at: instantSchema,
    updated_at: instantSchema,
    email_id: z.nullable(uuidSchema).check(z.meta({ description: 'The activity record of the mail once it fired; null before' })),
    error: z.optional(z.string()).check(z.meta({ description: 'Why it failed before a mail existed (a deleted template, a disabled project...)' })),
  })
  .check(z.meta({ id: 'ScheduledSend', description: 'A mail scheduled by `POST /send-email`: its time, addresses and status' }));

/** The answer of `GET` and `PATCH /v1/scheduled-sends/{id}` (4.6). */
export const scheduledSendAnswerSchema = z.strictObject({ success: z.literal(true), data: scheduledSendSchema });

/** The answer of `GET /v1/scheduled-sends`: a page of the project's sends. */
export const scheduledSendListAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(scheduledSendSchema),
  pagination: boundedPaginationSchema('ScheduledSendPagination'),
});

/** The answer of `DELETE /v1/scheduled-sends/{id}` (4.6). */
export const scheduledSendCancelledSchema = z
  .strictObject({ success: z.literal(true), id: uuidSchema, cancelled: z.literal(true) })
  .check(z.meta({ id: 'ScheduledSendCancelled', description: 'The scheduled send is cancelled and will not go out' }));

/** A realistic scheduled send, for the docs. */
export const scheduledSendExample = {
  id: '9d3e2c1b-4a5f-4e6d-8c7b-1a2b3c4d5e6f',
  status: 'pending',
  scheduled_for: '2026-11-27T09:00:00.000Z',
  timezone: 'Europe/London',
  recipient_email: 'ada@example.com',
  sender_email: 'hello@mail.example.com',
  subject: 'Your weekly summary',
  created_at: '2026-11-26T18:12:44.512Z',
  updated_at: '2026-11-26T18:12:44.512Z',
  email_id: null,
};
