import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './schema';

/**
 * Verifying a webhook POST of the Mailroom API, exactly as its delivery signs one
 * (shared/notifications/webhooks/signing.ts of the service): Standard Webhooks' `webhook-signature` over
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, and `X-Svc-Signature` over the raw body, both
 * HMAC-SHA256 keyed with the bytes of the secret's base64 (after `whsec_`).
 */

/** The event names the service posts. */
export type WebhookEventName = keyof webhooks;

/** The payload of one event, e.g. `WebhookPayload<'email.delivery'>`. */
export type WebhookPayload<N extends WebhookEventName> = webhooks[N] extends { post: { requestBody?: { content: { 'application/json': infer P } } } } ? P : never;

/** Any payload the service posts; narrow it on `event`. */
export type WebhookEvent = { [N in WebhookEventName]: WebhookPayload<N> }[WebhookEventName];

/** Request headers as Node's `IncomingMessage.headers`, a plain object, or a Fetch `Headers`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Why a POST is not a genuine, fresh delivery. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300): older deliveries are refused as replays. */
  readonly toleranceSeconds?: number;
  /** The clock (default `new Date()`). */
  readonly now?: Date;
}

const PREFIX = 'whsec_';

/** The HMAC key of a secret: the bytes its base64 (after `whsec_`) decodes to. */
function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('The secret has no key bytes');
  return key;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const plain = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(plain).find((k) => k.toLowerCase() === name);
  const value = found === undefined ? undefined : plain[found];
  return Array.isArray(value) ? value[0] : value;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks a webhook POST and returns its payload: `payload` is the raw body as received (verify
 * before parsing: re-serialized JSON does not match), `headers` the request's headers, `secret` the
 * `whsec_` secret of `GET /v1/webhooks/secret` (the live key's for the live URLs, the test key's for
 * the dev URLs). Throws a WebhookVerificationError when a signature does not match or the
 * timestamp is outside the tolerance.
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyWebhookOptions = {}): WebhookEvent {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
  const key = keyOf(secret);
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp is too far from now');

  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  // Standard Webhooks allows several space-separated signatures (e.g. during a rotation); one matching is enough.
  const matches = signatures.split(' ').some((s) => s.startsWith('v1,') && sameText(s.slice(3), expected));
  if (!matches) throw new WebhookVerificationError('webhook-signature does not match');

  const bodySignature = header(headers, 'x-svc-signature');
  if (bodySignature !== undefined && !sameText(bodySignature, `sha256=${createHmac('sha256', key).update(body).digest('hex')}`)) {
    throw new WebhookVerificationError('X-Svc-Signature does not match');
  }
  return JSON.parse(body.toString('utf8')) as WebhookEvent;
}
