import * as z from '../../platform/core/zod';
import { failureCodeSchema } from '../../mail-pipeline/activity/activity-answers';
import { EMAIL_EVENT_KINDS, type EmailEventKind } from '../../mail-pipeline/events/email-events';

/**
 * The body of every webhook POST (part 6), one schema per event, as the publishers build them:
 * shared/mail-pipeline/events/email-events.ts, shared/mail-pipeline/suppression/suppression-events.ts,
 * shared/mail-pipeline/inbound/inbound-event.ts, the domain and sender transitions (shared/identities/domains), the
 * automation webhook step and the campaign reputation guard (shared/marketing). The
 * delivery worker posts `JSON.stringify(event)`, so an absent field is absent, never undefined.
 * Objects are strict: a field a publisher gains fails the integration tests' receiver until it is
 * described here (and so in the OpenAPI document and the client's types).
 */

const uuid = z.string().check(z.meta({ format: 'uuid' }));
const instant = z.string().check(z.meta({ format: 'date-time' }));
const projectId = uuid.check(z.meta({ description: 'The project the event belongs to' }));
const isTest = z.boolean().check(z.meta({ description: 'True for mail sent with a `sk_test_` key' }));
const environment = z.optional(z.string().check(z.meta({ description: 'The custom environment the send named (only when it named one)' })));
const dispatchedAt = instant.check(z.meta({ description: 'When the event was dispatched' }));

/** The envelope of email events: `is_test`, and `environment` only for a send that named one. */
function emailEnvelope<D extends z.ZodMiniType>(name: string, data: D) {
  return z.strictObject({ event: z.literal(name), timestamp: dispatchedAt, project_id: projectId, is_test: isTest, environment, data });
}

/** The envelope of project events (domain.*, sender.*, suppression.*, email.suppressed): no `is_test`, no `environment`. */
function projectEnvelope<D extends z.ZodMiniType>(name: string, data: D) {
  return z.strictObject({ event: z.literal(name), timestamp: dispatchedAt, project_id: projectId, data });
}

/** The extra `data` fields of each kind of the shared outbound payload (part 6's table). */
const emailExtras: Record<EmailEventKind, Record<string, z.ZodMiniType>> = {
  send: {},
  delivery: {},
  bounce: {
    bounce_type: z.string().check(z.meta({ description: 'SES bounce type: `Permanent`, `Transient` or `Undetermined`' })),
    bounce_subtype: z.string().check(z.meta({ description: 'SES bounce subtype: `General`, `NoEmail`, `Suppressed`, ...' })),
  },
  complaint: {
    complaint_feedback_type: z.nullable(z.string().check(z.meta({ description: '`abuse`, `auth-failure`, `fraud`, `not-spam`, `other` or `virus`; null when the report had none' }))),
  },
  reject: {},
  deliverydelay: {},
  open: {},
  click: { url_clicked: z.string().check(z.meta({ description: 'The link the recipient followed' })) },
};

/** PascalCase of an event kind for component names (`deliverydelay` as `DeliveryDelay`). */
const kindName: Record<EmailEventKind, string> = {
  send: 'Send',
  delivery: 'Delivery',
  bounce: 'Bounce',
  complaint: 'Complaint',
  reject: 'Reject',
  deliverydelay: 'DeliveryDelay',
  open: 'Open',
  click: 'Click',
};

const emailEventDescriptions: Record<EmailEventKind, string> = {
  send: 'The send was accepted by SES and dispatched',
  delivery: "The recipient's mail server accepted the mail",
  bounce: 'The mail bounced',
  complaint: 'The recipient marked the mail as spam',
  reject: 'SES rejected the mail before it went out',
  deliverydelay: 'Delivery is temporarily delayed',
  open: 'The open pixel was loaded',
  click: 'A tracked link was clicked',
};

function emailEventSchema(kind: EmailEventKind) {
  const data = z.strictObject({
    activity_id: uuid.check(z.meta({ description: 'The activity (one per recipient) the event is about' })),
    recipient: z.string(),
    event_type: z.literal(kind),
    event_timestamp: instant.check(z.meta({ description: 'When the event itself happened' })),
    message_id: z.optional(z.string().check(z.meta({ description: "SES's message id; absent on some opens and clicks recorded by the service's own pixel and redirect" }))),
    ...emailExtras[kind],
  });
  return emailEnvelope(`email.${kind}`, data).check(z.meta({ id: `Email${kindName[kind]}Event`, description: `email.${kind}: ${emailEventDescriptions[kind]}` }));
}

const emailEventSchemas = Object.fromEntries(EMAIL_EVENT_KINDS.map((kind) => [`email.${kind}`, emailEventSchema(kind)]));

/** email.suppressed: an API send was not made, its recipient is suppressed. */
export const emailSuppressedEventSchema = projectEnvelope(
  'email.suppressed',
  z.strictObject({
    email: z.string(),
    activity_id: uuid,
    email_type: z.string(),
    suppressed_at: instant,
    suppression_reason: z.enum(['bounce', 'complaint', 'unsubscribe', 'manual']),
    suppression_source: z.string(),
    suppression_description: z.nullable(z.string()),
  }),
).check(z.meta({ id: 'EmailSuppressedEvent', description: 'email.suppressed: an API send was blocked because its recipient is suppressed (not for campaigns or automations)' }));

/** email.failed: an API send failed for good. */
export const emailFailedEventSchema = emailEnvelope(
  'email.failed',
  z.strictObject({
    activity_id: uuid,
    message_id: z.null(),
    recipient: z.string(),
    event_type: z.literal('failed'),
    event_timestamp: instant,
    error_code: failureCodeSchema,
    error_message: z.string(),
    permanent: z.boolean().check(z.meta({ description: 'True when resending the same email would fail again' })),
  }),
).check(z.meta({ id: 'EmailFailedEvent', description: 'email.failed: an API send failed for good (once, on the final failure)' }));

const mailAddress = z.strictObject({ address: z.string(), name: z.nullable(z.string()) });

/** email.inbound: a reply to a mail sent through the API. */
export const emailInboundEventSchema = emailEnvelope(
  'email.inbound',
  z.strictObject({
    activity_id: uuid.check(z.meta({ description: 'The activity of the mail replied to' })),
    thread_id: uuid.check(z.meta({ description: 'The same as activity_id: every reply to one sent mail has the same thread' })),
    event_type: z.literal('inbound'),
    event_timestamp: instant,
    message_id: z.nullable(z.string()),
    in_reply_to: z.nullable(z.string()),
    from: z.nullable(mailAddress),
    to: z.array(mailAddress),
    subject: z.string(),
    text: z.nullable(z.string()),
    html: z.nullable(z.string()),
    attachments: z.array(
      z.strictObject({
        filename: z.nullable(z.string()),
        content_type: z.string(),
        size: z.number().check(z.meta({ description: 'Decoded size in bytes' })),
        content: z.string().check(z.meta({ description: 'The content, base64' })),
      }),
    ),
    received_at: instant,
  }),
).check(z.meta({ id: 'EmailInboundEvent', description: 'email.inbound: the recipient replied (one attempt only)' }));

const verificationStatus = z.enum(['pending', 'verified', 'failed']);
const domainDetails = z.strictObject({
  domain_verification: z.string().check(z.meta({ description: "SES's status of the domain" })),
  dkim_verification: z.string().check(z.meta({ description: "SES's status of DKIM" })),
});

/** domain.verified / domain.failed: the domain's verification status changed (once per transition). */
function domainTransitionSchema(status: 'verified' | 'failed', id: string, description: string) {
  return projectEnvelope(
    `domain.${status}`,
    z.strictObject({
      identity_id: z.string(),
      domain: z.string(),
      verification_status: z.literal(status),
      previous_verification_status: verificationStatus,
      can_send: status === 'failed' ? z.literal(false) : z.boolean(),
      details: domainDetails,
    }),
  ).check(z.meta({ id, description }));
}

export const domainVerifiedEventSchema = domainTransitionSchema('verified', 'DomainVerifiedEvent', 'domain.verified: the domain and DKIM are verified');
export const domainFailedEventSchema = domainTransitionSchema('failed', 'DomainFailedEvent', 'domain.failed: the domain verification failed');

export const domainSendReadyEventSchema = projectEnvelope(
  'domain.send_ready',
  z.strictObject({ identity_id: z.string(), domain: z.string(), can_send: z.literal(true) }),
).check(z.meta({ id: 'DomainSendReadyEvent', description: 'domain.send_ready: the domain can send (possibly before DKIM finishes)' }));

export const senderVerifiedEventSchema = projectEnvelope(
  'sender.verified',
  z.strictObject({ identity_id: z.string(), sender_email: z.string(), can_send: z.literal(true) }),
).check(z.meta({ id: 'SenderVerifiedEvent', description: 'sender.verified: a magic-link sender is confirmed and can send' }));

export const senderFailedEventSchema = projectEnvelope(
  'sender.failed',
  z.strictObject({ identity_id: z.string(), sender_email: z.string() }),
).check(z.meta({ id: 'SenderFailedEvent', description: 'sender.failed: a magic-link sender verification failed or expired' }));

const suppressionCommon = { email: z.string(), source: z.string(), description: z.nullable(z.string()), suppressed_at: instant };

export const suppressionAddedEventSchema = projectEnvelope(
  'suppression.added',
  z.union([
    z.strictObject({ ...suppressionCommon, reason: z.literal('complaint'), complaint_feedback_type: z.nullable(z.string()) }),
    z.strictObject({ ...suppressionCommon, reason: z.enum(['bounce', 'unsubscribe', 'manual']), bounce_type: z.nullable(z.string()), bounce_subtype: z.nullable(z.string()) }),
  ]),
).check(z.meta({ id: 'SuppressionAddedEvent', description: 'suppression.added: an address was suppressed automatically after a hard bounce or a complaint' }));

export const suppressionRemovedEventSchema = projectEnvelope(
  'suppression.removed',
  z.strictObject({ email: z.string(), removed_at: instant, removed_by: z.string() }),
).check(z.meta({ id: 'SuppressionRemovedEvent', description: 'suppression.removed: an address was removed from the suppression list' }));

export const automationWebhookEventSchema = projectEnvelope(
  'automation.webhook',
  z.strictObject({
    event_id: z.string().check(z.meta({ description: 'The same for every attempt and any redo of the step: receivers drop repeats by it' })),
    automation_id: z.string(),
    run_id: z.string(),
    step_id: z.string().check(z.meta({ description: "The automation's webhook step" })),
    lead_id: z.string(),
    email: z.string(),
    lead_data: z.record(z.string(), z.unknown()).check(z.meta({ description: "The lead's data when the step ran" })),
    trigger_properties: z.record(z.string(), z.unknown()).check(z.meta({ description: "The properties of the event that started the run (empty for other triggers)" })),
  }),
).check(z.meta({ id: 'AutomationWebhookEvent', description: "automation.webhook: a run reached an automation's webhook step" }));

/** campaign.paused: the reputation guard paused a campaign (an extension of part 6, routed by the campaign's mode like email events). */
export const campaignPausedEventSchema = z
  .strictObject({
    event: z.literal('campaign.paused'),
    timestamp: dispatchedAt,
    project_id: projectId,
    is_test: isTest.check(z.meta({ description: 'True for a campaign in test mode' })),
    data: z.strictObject({
      campaign_id: uuid,
      name: z.string().check(z.meta({ description: "The campaign's name" })),
      reason: z
        .enum(['bounce_rate', 'complaint_rate', 'project_paused'])
        .check(z.meta({ description: "Hard bounces above 5% of the campaign's mails, complaints above 0.1% of its delivered ones, or its project's marketing paused by the project's reputation watch (resumed with it)" })),
      rate: z.number().check(z.meta({ description: "The measured rate, 0 to 1 (the project's, for project_paused)" })),
      sample: z.number().check(z.meta({ description: 'The mails the rate was measured over (at least 500)' })),
      paused_at: instant,
    }),
  })
  .check(z.meta({ id: 'CampaignPausedEvent', description: "campaign.paused: the reputation guard paused a campaign whose hard-bounce or complaint rate passed SES's review thresholds, or whose project's marketing paused" }));

export const projectMarketingPausedEventSchema = projectEnvelope(
  'project.marketing_paused',
  z.strictObject({
    reason: z.enum(['bounce_rate', 'complaint_rate']),
    rate: z.number().check(z.meta({ description: 'The measured rate, as a fraction (0.045 is 4.5%)' })),
    threshold: z.number().check(z.meta({ description: 'The warning level it reached: 0.04 for permanent bounces, 0.0008 for complaints' })),
    sample: z.number().check(z.meta({ description: 'Live mails sent in the measured window' })),
    since: instant.check(z.meta({ description: 'The start of the measured window (7 days, or from the last resume)' })),
    paused_at: instant,
    message: z.string().check(z.meta({ description: 'What happened and what to do' })),
  }),
).check(
  z.meta({
    id: 'ProjectMarketingPausedEvent',
    description:
      "project.marketing_paused: the project's permanent-bounce or complaint rate passed the warning level; its campaigns, marketing batches and automations' marketing sends wait until an operator resumes, transactional mail goes on",
  }),
);

/** Every event the service posts, by its `event` name. */
export const webhookPayloadSchemas: Readonly<Record<string, z.ZodMiniType>> = {
  ...emailEventSchemas,
  'email.suppressed': emailSuppressedEventSchema,
  'email.failed': emailFailedEventSchema,
  'email.inbound': emailInboundEventSchema,
  'domain.verified': domainVerifiedEventSchema,
  'domain.failed': domainFailedEventSchema,
  'domain.send_ready': domainSendReadyEventSchema,
  'sender.verified': senderVerifiedEventSchema,
  'sender.failed': senderFailedEventSchema,
  'suppression.added': suppressionAddedEventSchema,
  'suppression.removed': suppressionRemovedEventSchema,
  'automation.webhook': automationWebhookEventSchema,
  'campaign.paused': campaignPausedEventSchema,
  'project.marketing_paused': projectMarketingPausedEventSchema,
};

/** Why a webhook body is not the payload of its event, or undefined when it is. */
export function webhookPayloadProblem(body: unknown): string | undefined {
  const name = (body as { event?: unknown } | null)?.event;
  const schema = typeof name === 'string' ? webhookPayloadSchemas[name] : undefined;
  if (!schema) return `Unknown event ${JSON.stringify(name)}`;
  const result = schema.safeParse(body);
  return result.success ? undefined : `${name}: ${result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`;
}
