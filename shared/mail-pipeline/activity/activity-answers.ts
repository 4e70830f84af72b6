import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';

const nullableInstant = z.nullable(instantSchema);

/** The states of part 3 an activity record can be in; `cancelled` is a mail of a cancelled batch. */
export const activityStatusSchema = z
  .enum(['queued', 'retrying', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'cancelled'])
  .check(z.meta({ id: 'ActivityStatus', description: 'Where the mail stands (part 3)' }));

/** The stable `error_code` of a failed mail (part 6, `email.failed`). */
export const failureCodeSchema = z.enum([
  'sender_not_verified',
  'rejected',
  'rate_limit_exhausted',
  'attachment_error',
  'sender_domain_unauthenticated',
  'quota_exceeded',
  'template_error',
  'send_failed',
]);

/** One entry of a mail's timeline (part 2, Activity event), as `include=events` shows it. */
export const activityEventSchema = z
  .strictObject({
    id: uuidSchema,
    event_type: z.string().check(
      z.meta({
        description: '`sent`, `delivered`, `bounce`, `complaint`, `reject`, `open`, `click`, `rendering_failure`, `delivery_delay`',
        examples: ['delivered'],
      }),
    ),
    event_timestamp: instantSchema,
    user_agent: z.nullable(z.string()),
    ip_address: z.nullable(z.string()),
    url_clicked: z.nullable(z.string()),
    bounce_type: z.nullable(z.string()),
    bounce_subtype: z.nullable(z.string()),
    complaint_feedback_type: z.nullable(z.string()),
    created_at: instantSchema,
  })
  .check(z.meta({ id: 'ActivityEvent', description: 'One event of a mail\'s timeline; the timeline is ordered by `event_timestamp`, ascending' }));

/** One header of a mail, as `include=headers` shows it. */
const mailHeaderSchema = z
  .strictObject({ name: z.string().check(z.meta({ examples: ['Reply-To'] })), value: z.string().check(z.meta({ examples: ['support@example.com'] })) })
  .check(z.meta({ id: 'ActivityMailHeader', description: 'A header of the mail: its name and its value as sent' }));

/**
 * The activity record (part 2) as shared/mail-pipeline/activity/activity-presenter.ts builds it: every documented
 * field present (null where unknown), the optional ones only when the mail has them.
 */
export const activityRecordSchema = z
  .strictObject({
    id: uuidSchema.check(z.meta({ description: '`email_id` of the send answers, `activity_id` of webhooks' })),
    created_at: instantSchema,
    email_type: z.string().check(z.meta({ examples: ['transactional'] })),
    campaign_id: z.nullable(uuidSchema),
    automation_run_id: z.nullable(z.string()),
    template_id: z.nullable(uuidSchema),
    message_id: z.nullable(z.string()).check(z.meta({ description: 'Assigned by SES once the mail is sent; null before' })),
    subject: z.string(),
    sender_email: z.string(),
    sender_name: z.nullable(z.string()),
    recipient_primary: z.string().check(z.meta({ description: 'Lowercased' })),
    current_status: activityStatusSchema,
    is_test: z.boolean().check(z.meta({ description: 'Sent with a test key (sk_test_): real mail, flagged so the live view hides it; its webhooks go to the dev URLs' })),
    environment: z.nullable(z.string()),
    sent_at: nullableInstant,
    delivered_at: nullableInstant,
    bounced_at: nullableInstant,
    complained_at: nullableInstant,
    opened_first_at: nullableInstant,
    clicked_first_at: nullableInstant,
    error_code: z.nullable(failureCodeSchema).check(z.meta({ description: 'Why a `failed` mail failed (part 6); null otherwise' })),
    error_message: z.nullable(z.string()),
    suppression_reason: z.optional(z.string()).check(z.meta({ description: 'Why a `suppressed` mail was not sent' })),
    thread_id: z.optional(z.string()),
    source: z.optional(z.string()),
    batch_id: z.optional(uuidSchema).check(z.meta({ description: 'The batch send the mail belongs to' })),
    metadata: z.optional(z.record(z.string(), z.unknown())).check(z.meta({ description: 'The batch recipient\'s `metadata`, as given' })),
    html_content: z.optional(z.nullable(z.string())).check(z.meta({ description: 'Only with `include=html`; null when the HTML cannot be told (not sent yet, or not kept)' })),
    text_content: z
      .optional(z.nullable(z.string()))
      .check(z.meta({ description: 'Only with `include=text`: the text part as sent (the one given, else the one derived from the HTML); null when the body is not kept (not written yet, or expired)' })),
    headers: z
      .optional(z.nullable(z.array(mailHeaderSchema)))
      .check(
        z.meta({
          description:
            'Only with `include=headers`: From, To, Cc (when any), Reply-To (when set) and Subject as the API sent them; null when the body is not kept. Headers SES or the worker adds (Message-ID, Date, DKIM-Signature, List-Unsubscribe) are not kept',
        }),
      ),
    events: z.optional(z.array(activityEventSchema)).check(z.meta({ description: 'Only with `include=events`' })),
  })
  .check(z.meta({ id: 'ActivityRecord', description: 'One mail to one recipient: its addresses, status, timestamps and, on request, its HTML and timeline' }));

/** A realistic record, for the docs. */
export const activityRecordExample = {
  id: '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34',
  created_at: '2026-11-26T09:30:00.000Z',
  email_type: 'transactional',
  campaign_id: null,
  automation_run_id: null,
  template_id: null,
  message_id: '0100019a6c2f5e1b-4d3c2b1a-9f8e-4d7c-b6a5-1e2d3c4b5a69-000000',
  subject: 'Your receipt',
  sender_email: 'hello@mail.example.com',
  sender_name: 'Example Shop',
  recipient_primary: 'ada@example.com',
  current_status: 'delivered',
  is_test: false,
  environment: null,
  sent_at: '2026-11-26T09:30:01.204Z',
  delivered_at: '2026-11-26T09:30:03.871Z',
  bounced_at: null,
  complained_at: null,
  opened_first_at: '2026-11-26T10:02:45.000Z',
  clicked_first_at: null,
  error_code: null,
  error_message: null,
};

/** The answer of `GET /v1/activity/{id}` (4.11). */
export const activityAnswerSchema = z.strictObject({ success: z.literal(true), data: activityRecordSchema });

/** The pagination block of a bounded list: part 4.0's counts, whether `total` is a lower bound, and the next page's cursor. */
export const activityPaginationSchema = z
  .strictObject({
    page: z.number(),
    per_page: z.number(),
    total: z.number(),
    total_pages: z.number(),
    total_is_estimate: z.boolean().check(z.meta({ description: 'True when the count stopped at its window: more records may follow than `total` says' })),
    next_cursor: z.nullable(z.string()).check(z.meta({ description: 'Pass as `cursor` to read the next page; null at the end of the list' })),
  })
  .check(z.meta({ id: 'ActivityPagination', description: 'Where the page stands in the list, and the cursor of the next one' }));

/** The answer of `GET /v1/activity` (4.11). */
export const activityListSchema = z
  .strictObject({ success: z.literal(true), data: z.array(activityRecordSchema), pagination: activityPaginationSchema })
  .check(z.meta({ id: 'ActivityList', description: 'Activity records, newest first, and the pagination block' }));

/** One sender domain's figures over the period (4.11). */
const domainStatsRowSchema = z.strictObject({
  sender_domain: z.string(),
  total_sent: z.number().check(z.meta({ description: 'Live mails sent (test sends excluded)' })),
  total_delivered: z.number(),
  hard_bounced: z.number().check(z.meta({ description: 'Permanent bounces (the address is suppressed)' })),
  soft_bounced: z.number().check(z.meta({ description: 'Transient bounces (not suppressed)' })),
  complained: z.number(),
  unique_opens: z.number(),
  unique_clicks: z.number(),
  hard_bounce_rate: z.number().check(z.meta({ description: 'Permanent bounces per 100 live mails sent in the period (0 to 100, two decimals); 0 when none was sent' })),
});

/** The answer of `GET /v1/domain-stats` (4.11). */
export const domainStatsSchema = z
  .strictObject({
    success: z.literal(true),
    period: z.strictObject({ since: instantSchema, until: instantSchema }),
    data: z.array(domainStatsRowSchema),
  })
  .check(z.meta({ id: 'DomainStats', description: 'Figures per sender domain over a period, from daily counters' }));
