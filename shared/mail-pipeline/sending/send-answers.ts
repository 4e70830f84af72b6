import * as z from '../../platform/core/zod';
import { instantSchema, uuidSchema } from '../../platform/http/answer-fields';

/** The answer of `POST /v1/send-email` (4.1). */
export const sendAnswerSchema = z
  .strictObject({
    message: z.string(),
    email_id: uuidSchema,
    project_id: uuidSchema,
  })
  .check(z.meta({ id: 'SendAccepted', description: 'The mail is queued: its activity id is `email_id`' }));

/** The answer of `POST /v1/send-template-email` (4.2): queued, or skipped for a suppressed recipient. */
export const templateSendAnswerSchema = z
  .union([
    z.strictObject({
      message: z.string(),
      email_id: uuidSchema,
      project_id: uuidSchema,
      template_id: z.nullable(uuidSchema),
      template_internal_id: z.nullable(z.number()),
      variables_used: z.array(z.string()),
      used_cached_html: z.boolean(),
    }),
    z.strictObject({
      message: z.string(),
      skipped: z.literal(true),
      suppression_reason: z.string(),
      recipient: z.string(),
    }),
  ])
  .check(z.meta({ id: 'TemplateSendAccepted', description: 'Queued (with the template and variables used), or skipped: the recipient is suppressed' }));

/** What a dry run would send. */
const wouldSendSchema = z.strictObject({
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  from: z.string(),
  subject: z.string(),
  html_preview: z.string(),
  text_preview: z.nullable(z.string()).check(z.meta({ description: 'The plain-text part given, rendered, cut like `html_preview`; null when none is given (delivery then derives one from the HTML)' })),
  template_id: z.nullable(z.string()),
  variables_used: z.array(z.string()),
});

/** The answers of `POST /send-email` (4.5): queued now, scheduled, or a dry run. */
export const advancedSendAnswerSchema = z
  .union([
    z.strictObject({
      success: z.literal(true),
      message: z.string(),
      email_id: uuidSchema,
      emails: z.array(z.strictObject({ recipient: z.string(), email_id: uuidSchema })),
      project_id: uuidSchema,
    }),
    z.strictObject({
      success: z.literal(true),
      scheduled: z.literal(true),
      scheduled_send_id: uuidSchema,
      scheduled_for: instantSchema,
      scheduled_for_local: z.string(),
      timezone: z.string(),
      message: z.string(),
      warnings: z.optional(z.array(z.string())),
    }),
    z.strictObject({
      success: z.literal(true),
      dry_run: z.literal(true),
      test_mode: z.boolean(),
      sample_cart_items_injected: z.boolean(),
      would_send: wouldSendSchema,
      scheduled_for: z.optional(instantSchema),
      scheduled_for_local: z.optional(z.string()),
      timezone: z.optional(z.string()),
    }),
  ])
  .check(z.meta({ id: 'AdvancedSendAccepted', description: 'Queued now (one activity per recipient), scheduled (one scheduled send), or a dry run (nothing written)' }));
