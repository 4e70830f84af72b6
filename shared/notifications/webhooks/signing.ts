import { createHmac } from 'node:crypto';
import type { WebhookSlot } from './webhook-job';

/** Prefix of a webhook secret (the Standard Webhooks format: `whsec_` + base64 of the key bytes). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The `user-agent` of every webhook POST. */
export const WEBHOOK_USER_AGENT = 'Mailroom-Webhooks/1';

/** The HMAC key of a secret: the bytes the base64 after `whsec_` decodes to. */
export function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('Webhook secret has no key bytes');
  return key;
}

/** `X-Svc-Signature`: `sha256=` + hex HMAC-SHA256 of the raw body, keyed with the secret's bytes. */
export function bodySignature(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', signingKey(secret)).update(body).digest('hex')}`;
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`
 * with the same key, so that the `standardwebhooks` libraries verify it as is.
 */
export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestampSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/** Every header of a webhook POST (names lowercased). */
export function webhookHeaders(input: { secret: string; deliveryId: string; attemptAt: Date; body: string; slot: WebhookSlot }): Record<string, string> {
  const timestamp = Math.floor(input.attemptAt.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-svc-signature': bodySignature(input.secret, input.body),
    'x-svc-environment': input.slot,
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(input.secret, input.deliveryId, timestamp, input.body),
  };
}
