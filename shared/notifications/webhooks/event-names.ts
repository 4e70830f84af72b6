import { EMAIL_EVENT_KINDS } from '../../mail-pipeline/events/email-events';

/**
 * Every event name a webhook carries, for the delivery log's `event` filter: a plain list, so the
 * webhooks group does not build every payload schema (webhook-payloads.ts) at its cold start. A unit
 * test holds it equal to the schemas' names.
 */
export const WEBHOOK_EVENT_NAMES: readonly string[] = [
  ...EMAIL_EVENT_KINDS.map((kind) => `email.${kind}`),
  'email.suppressed',
  'email.failed',
  'email.inbound',
  'domain.verified',
  'domain.failed',
  'domain.send_ready',
  'sender.verified',
  'sender.failed',
  'suppression.added',
  'suppression.removed',
  'automation.webhook',
  'campaign.paused',
  'project.marketing_paused',
];
