import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';

/** A custom event as the API shows it (presentEvent). */
export const customEventSchema = z
  .strictObject({
    id: uuidSchema,
    email: z.string().check(z.meta({ examples: ['ada@example.com'] })),
    event: z.string().check(z.meta({ examples: ['order_completed'] })),
    properties: z.record(z.string(), z.unknown()),
    timestamp: instantSchema,
    recipient_id: uuidSchema.check(z.meta({ description: 'The id of the event\'s lead' })),
    created_at: instantSchema,
  })
  .check(z.meta({ id: 'CustomEvent', description: 'A custom event of a lead' }));

/** The answer of `POST /v1/events`. */
export const eventRecordedAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    event_id: uuidSchema,
    recipient_id: uuidSchema,
    created_lead: z.boolean().check(z.meta({ description: 'True when the email was no lead yet: one was created with empty data' })),
  })
  .check(z.meta({ id: 'EventRecorded', description: 'The event is recorded' }));

/** The answer of `POST /v1/events/bulk`. */
export const eventsRecordedAnswerSchema = z
  .strictObject({ success: z.literal(true), total: z.int(), created_leads: z.int() })
  .check(z.meta({ id: 'EventsRecorded', description: 'Every event is recorded; `created_leads` counts the emails that became leads' }));

/** The `pagination` of `GET /v1/events`: a bounded count, and a cursor past the offset pages. */
export const eventPaginationSchema = z
  .strictObject({
    page: z.int(),
    per_page: z.int(),
    total: z.int(),
    total_pages: z.int(),
    total_is_estimate: z.boolean().check(z.meta({ description: 'True when the count stopped at its window: more events may follow than `total` says' })),
    next_cursor: z.nullable(z.string()).check(z.meta({ description: 'Pass it as `cursor` for the next page; null at the end' })),
  })
  .check(z.meta({ id: 'EventPagination', description: 'Where the page is; `total` counts at most 1,000 events past it' }));

/** The answer of `GET /v1/events`. */
export const eventListAnswerSchema = z.strictObject({ success: z.literal(true), data: z.array(customEventSchema), pagination: eventPaginationSchema });
