import type { ActivityStatus } from '../../mail-pipeline/activity/activity';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';
import * as z from '../../platform/core/zod';
import type { ExportStatus } from './campaign-export';
import type { LeftOutReason } from './recipient-outcome';

/** Every activity status, in the order the reports' refusals list them. */
export const ACTIVITY_STATUSES = ['queued', 'retrying', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'suppressed', 'cancelled'] as const satisfies readonly ActivityStatus[];
/** Why a recipient was left out. */
export const LEFT_OUT_REASONS = ['suppressed', 'unsubscribed', 'invalid'] as const satisfies readonly LeftOutReason[];
const EXPORT_STATUSES = ['running', 'completed', 'failed'] as const satisfies readonly ExportStatus[];

const maybeInstant = z.nullable(instantSchema);
const leftOutReasonSchema = z.enum(LEFT_OUT_REASONS);

/** One recipient's outcome (recipient-outcome.ts `recipientOutcome`), as the list and the export's rows give it. */
export const recipientOutcomeSchema = z
  .strictObject({
    email: z.string(),
    activity_id: uuidSchema,
    status: z.enum(ACTIVITY_STATUSES),
    sent_at: maybeInstant,
    delivered_at: maybeInstant,
    opened: z.boolean(),
    opened_at: maybeInstant,
    machine_opened: z.boolean(),
    clicked: z.boolean(),
    clicked_at: maybeInstant,
    bounced: z.boolean(),
    bounced_at: maybeInstant,
    complained: z.boolean(),
    left_out_reason: z.nullable(leftOutReasonSchema),
  })
  .check(
    z.meta({
      id: 'CampaignRecipientOutcome',
      description: 'What became of one campaign mail: its activity\'s status and first times; `opened` is a person\'s open (machine opens are `machine_opened`)',
    }),
  );

/** A recipient the campaign did not send to, and why (campaign-report.ts `listLeftOut`). */
export const leftOutSchema = z
  .strictObject({ email: z.string(), activity_id: uuidSchema, reason: leftOutReasonSchema, suppression_reason: z.nullable(z.string()) })
  .check(
    z.meta({
      id: 'CampaignLeftOut',
      description: 'A recipient left out: `suppressed` (on the suppression list), `unsubscribed`, or `invalid` (an address the engine could not send to); `suppression_reason` as recorded',
    }),
  );

/** The `pagination` of an unfiltered report: pages by `page` up to 1,000 entries deep, then by `cursor`. */
const offsetPaginationSchema = z.strictObject({
  page: z.number(),
  per_page: z.number(),
  total: z.number(),
  total_is_estimate: z.boolean(),
  next_cursor: z.nullable(z.string()),
});

/** The `pagination` of a filtered report: how many records this page read, and where to read on (null at the end). */
export const scanPaginationSchema = z
  .strictObject({ per_page: z.number(), read: z.number(), next_cursor: z.nullable(z.string()) })
  .check(z.meta({ id: 'CampaignReportScan', description: 'A filtered report\'s page: it read `read` records (at most 10 per row of the page); `next_cursor` reads on, null at the end' }));

/** The answer of `GET /v1/campaigns/{id}/recipients`: by `page` without `status`, by `cursor` with one. */
export const recipientOutcomesAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    campaign_id: uuidSchema,
    recipients: z.array(recipientOutcomeSchema),
    pagination: z.union([offsetPaginationSchema, scanPaginationSchema]),
  })
  .check(z.meta({ id: 'CampaignRecipientOutcomes', description: 'The outcome of each recipient released so far: newest first without `status`, in the campaign index\'s order with it' }));

/** The answer of `GET /v1/campaigns/{id}/left-out`. */
export const leftOutAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    campaign_id: uuidSchema,
    left_out: z.strictObject({ total: z.number().check(z.meta({ description: 'The campaign\'s counter of recipients left out' })) }),
    recipients: z.array(leftOutSchema),
    pagination: scanPaginationSchema,
  })
  .check(z.meta({ id: 'CampaignLeftOutList', description: 'The recipients left out, and why, paged by cursor' }));

/** An export as the API shows it (campaign-export.ts `presentExport`). */
export const campaignExportSchema = z
  .strictObject({
    id: uuidSchema,
    campaign_id: uuidSchema,
    status: z.enum(EXPORT_STATUSES),
    rows: z.number(),
    parts: z.number(),
    created_at: instantSchema,
    completed_at: maybeInstant,
    error: z.nullable(z.string()),
    download_url: z.nullable(z.string().check(z.meta({ format: 'uri' }))),
  })
  .check(z.meta({ id: 'CampaignExport', description: 'A CSV export of every outcome: its progress, and once `completed` a download URL valid an hour' }));

/** The answer of both export routes. */
export const campaignExportAnswerSchema = z
  .strictObject({ success: z.literal(true), export: campaignExportSchema })
  .check(z.meta({ id: 'CampaignExportAnswer', description: 'The export' }));

/** 404 of the report routes: no such campaign (or export) in the project. */
export const reportNotFoundSchema = z.strictObject({ error: z.literal('NOT_FOUND') });
