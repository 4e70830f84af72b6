import * as z from '../../shared/platform/core/zod';
import { DEFAULT_BACKOFF_SECONDS } from '../../shared/notifications/webhooks/deliver-webhook';
import { WEBHOOK_USER_AGENT } from '../../shared/notifications/webhooks/signing';
import { webhookPayloadSchemas } from '../../shared/notifications/webhooks/webhook-payloads';
import type { DocumentExtras } from './document';

/**
 * The OpenAPI 3.1 `webhooks` section: every event the service posts (part 6), its payload as a
 * named component, the headers shared/notifications/webhooks/signing.ts sends, and what the receiver answers.
 */

/** The tag the webhook operations are listed under on the docs page. */
export const WEBHOOK_EVENTS_TAG = {
  name: 'webhook-events',
  description:
    'What the service POSTs to your webhook URLs (set on the project: `webhook_url`, `webhook_url_dev`, `inbound_webhook_url`, ...). ' +
    'Verify `webhook-signature` (Standard Webhooks) or `X-Svc-Signature` with the secret of `GET /v1/webhooks/secret` before reading the body; ' +
    '`verifyWebhook` of the TypeScript client does both. Deduplicate on `(event, data.activity_id, data.event_timestamp)`: a retry may redeliver an event.',
};

/** The request headers of every webhook POST (names as shared/notifications/webhooks/signing.ts sends them). */
const headers = [
  {
    name: 'X-Svc-Signature',
    description: '`sha256=` + hex HMAC-SHA256 of the raw body, keyed with the bytes the base64 after `whsec_` of the secret decodes to',
    schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
    example: 'sha256=4f0e5b9c2d7a1e3f6b8c0d2e4f6a8b0c1d3e5f7a9b1c3d5e7f9a1b3c5d7e9f1a',
  },
  {
    name: 'X-Svc-Environment',
    description: 'The slot of the URL: `live` (live key traffic and project events) or `dev` (test key traffic and project events); each slot has its own secret',
    schema: { type: 'string', enum: ['live', 'dev'] },
  },
  {
    name: 'webhook-id',
    description: 'Standard Webhooks: the delivery id, the same on every attempt of one delivery',
    schema: { type: 'string', pattern: '^msg_' },
    example: 'msg_6c1f5a0e-2b7d-4c39-9e4a-8f1d2c3b4a5e',
  },
  {
    name: 'webhook-timestamp',
    description: 'Standard Webhooks: the attempt time in Unix seconds (signed: refuse one far from your clock)',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1795685400',
  },
  {
    name: 'webhook-signature',
    description: 'Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` with the same key; the `standardwebhooks` libraries verify it as is',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+=*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
  { name: 'User-Agent', description: 'The sender of the POST', schema: { type: 'string', const: WEBHOOK_USER_AGENT } },
].map((h) => ({ ...h, in: 'header', required: true }));

const PROJECT = '8b1d6f3e-5c2a-4e7f-9a1b-3c5d7e9f1a2b';
const ACTIVITY = '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34';
const AT = '2026-11-26T09:30:02.114Z';
const EVENT_AT = '2026-11-26T09:30:01.870Z';
const MESSAGE = '0100019b2c4d6e8f-5a7b9c1d-3e5f-4a7b-9c1d-3e5f7a9b1c3d-000000';

/** The envelope of an email event's example. */
const email = (event: string, data: Record<string, unknown>) => ({
  event,
  timestamp: AT,
  project_id: PROJECT,
  is_test: false,
  data: { activity_id: ACTIVITY, recipient: 'ada@example.com', event_type: event.slice('email.'.length), event_timestamp: EVENT_AT, message_id: MESSAGE, ...data },
});
const project = (event: string, data: Record<string, unknown>) => ({ event, timestamp: AT, project_id: PROJECT, data });
const domainTransition = { identity_id: 'mail.example.com', domain: 'mail.example.com', details: { domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS' } };

/** A realistic example of each event's payload (a unit test checks each against its schema). */
export const webhookExamples: Readonly<Record<string, unknown>> = {
  'email.send': email('email.send', {}),
  'email.delivery': email('email.delivery', {}),
  'email.bounce': email('email.bounce', { bounce_type: 'Permanent', bounce_subtype: 'General' }),
  'email.complaint': email('email.complaint', { complaint_feedback_type: 'abuse' }),
  'email.reject': email('email.reject', {}),
  'email.deliverydelay': email('email.deliverydelay', {}),
  'email.open': email('email.open', {}),
  'email.click': email('email.click', { url_clicked: 'https://example.com/pricing' }),
  'email.suppressed': project('email.suppressed', {
    email: 'ada@example.com',
    activity_id: ACTIVITY,
    email_type: 'transactional',
    suppressed_at: AT,
    suppression_reason: 'bounce',
    suppression_source: 'ses',
    suppression_description: 'smtp; 550 5.1.1 user unknown',
  }),
  'email.failed': {
    ...email('email.failed', { message_id: null, error_code: 'sender_not_verified', error_message: 'The sender news@example.com is not verified', permanent: true }),
  },
  'email.inbound': {
    ...email('email.inbound', {}),
    data: {
      activity_id: ACTIVITY,
      thread_id: ACTIVITY,
      event_type: 'inbound',
      event_timestamp: EVENT_AT,
      message_id: '<CAF3x9q@mail.example.com>',
      in_reply_to: `<${MESSAGE}@email.amazonses.com>`,
      from: { address: 'ada@example.com', name: 'Ada Lovelace' },
      to: [{ address: `reply+${ACTIVITY}@in.example.com`, name: null }],
      subject: 'Re: Your invoice',
      text: 'Thanks, received.',
      html: null,
      attachments: [],
      received_at: EVENT_AT,
    },
  },
  'domain.verified': project('domain.verified', { ...domainTransition, verification_status: 'verified', previous_verification_status: 'pending', can_send: true }),
  'domain.failed': project('domain.failed', {
    ...domainTransition,
    details: { domain_verification: 'FAILED', dkim_verification: 'FAILED' },
    verification_status: 'failed',
    previous_verification_status: 'pending',
    can_send: false,
  }),
  'domain.send_ready': project('domain.send_ready', { identity_id: 'mail.example.com', domain: 'mail.example.com', can_send: true }),
  'sender.verified': project('sender.verified', { identity_id: '5e7f9a1b-3c5d-4e7f-8a1b-2c3d4e5f6a7b', sender_email: 'news@example.com', can_send: true }),
  'sender.failed': project('sender.failed', { identity_id: '5e7f9a1b-3c5d-4e7f-8a1b-2c3d4e5f6a7b', sender_email: 'news@example.com' }),
  'suppression.added': project('suppression.added', {
    email: 'ada@example.com',
    reason: 'bounce',
    source: 'ses',
    description: 'smtp; 550 5.1.1 user unknown',
    suppressed_at: EVENT_AT,
    bounce_type: 'Permanent',
    bounce_subtype: 'General',
  }),
  'suppression.removed': project('suppression.removed', { email: 'ada@example.com', removed_at: AT, removed_by: 'api' }),
  'automation.webhook': project('automation.webhook', {
    event_id: 'msg_6f1c2b9e-3a4d-5e5f-8a9b-0c1d2e3f4a5b',
    automation_id: '0b8f5c1e-2d3a-4f5b-9c6d-7e8f9a0b1c2d',
    run_id: '5d2e8f14-7c3b-5a9e-8d1f-2b4c6e8a0d13',
    step_id: 'notify_crm',
    lead_id: '3c9a7e21-4b5d-4f6e-8a1b-2c3d4e5f6a7b',
    email: 'ada@example.com',
    lead_data: { first_name: 'Ada', plan: 'pro' },
    trigger_properties: { plan: 'pro' },
  }),
  'campaign.paused': {
    event: 'campaign.paused',
    timestamp: AT,
    project_id: PROJECT,
    is_test: false,
    data: { campaign_id: '7a3c9e1f-5b2d-4c8e-9f1a-6d4b2e8c0a13', name: 'Spring sale', reason: 'bounce_rate', rate: 0.062, sample: 512, paused_at: AT },
  },
  'project.marketing_paused': project('project.marketing_paused', {
    reason: 'bounce_rate',
    rate: 0.0452,
    threshold: 0.04,
    sample: 2412,
    since: '2026-11-19T09:00:00.000Z',
    paused_at: AT,
    message:
      'Marketing mail is paused since 2026-11-26T09:30:02.114Z: the permanent-bounce rate was 4.52% over 2412 mails since 2026-11-19T09:00:00.000Z, above the 4% warning level (SES reviews an account at 5%). Transactional mail still goes out. Clean the list, then resume marketing (POST /v1/partner/projects/{projectId}/marketing/resume).',
  }),
};

const wait = (seconds: number) => (seconds < 60 ? `${seconds} s` : `${seconds / 60} min`);
const attemptsOf = (name: string) =>
  name === 'email.inbound'
    ? 'one attempt only'
    : `${DEFAULT_BACKOFF_SECONDS.length + 1} attempts in all (retries after ${DEFAULT_BACKOFF_SECONDS.map(wait).join(', ')})`;

/** `webhooks` of the document: one POST per event name. */
export const webhooksSection: NonNullable<DocumentExtras['webhooks']> = (components) =>
  Object.fromEntries(
    Object.entries(webhookPayloadSchemas).map(([name, schema]: [string, z.ZodMiniType]) => {
      const converted = components.convert(schema, 'output');
      return [
        name,
        {
          post: {
            operationId: `webhook${name.replace(/(^|[._])(\w)/g, (_, _sep: string, c: string) => c.toUpperCase())}`,
            summary: name,
            description: `${z.globalRegistry.get(schema)?.description ?? name}. Delivered with ${attemptsOf(name)}; timeout 10 s per attempt.`,
            tags: [WEBHOOK_EVENTS_TAG.name],
            parameters: headers,
            requestBody: { required: true, content: { 'application/json': { schema: converted, examples: { example: { value: webhookExamples[name] } } } } },
            responses: {
              '2XX': { description: 'Received. Any other answer, or none within 10 s, counts as a failed attempt' },
            },
          },
        },
      ];
    }),
  );

/** What `npm run openapi` adds to the route modules' document: the webhooks and their tag. */
export const documentExtras: DocumentExtras = { webhooks: webhooksSection, tags: [WEBHOOK_EVENTS_TAG] };
