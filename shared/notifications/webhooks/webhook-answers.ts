import * as z from '../../platform/core/zod';
import { boundedPaginationSchema, instantSchema, uuidSchema } from '../../platform/http/answer-fields';

/** The answer of reading or rotating a slot's signing secret. */
export const webhookSecretAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    secret: z.string().check(z.meta({ description: '`whsec_` and the base64 of 24 random bytes (Standard Webhooks)', examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] })),
  })
  .check(z.meta({ id: 'WebhookSecret', description: 'The secret that signs the deliveries of the calling key\'s slot (live key: live, test key: dev)' }));

/** A failed delivery as the API shows it (presentWebhookFailure). */
export const webhookFailureSchema = z
  .strictObject({
    delivery_id: z.string().check(z.meta({ description: 'The delivery\'s `webhook-id` header', examples: ['msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21'] })),
    event: z.string().check(z.meta({ examples: ['email.delivery'] })),
    activity_id: z.nullable(uuidSchema),
    url: z.string(),
    slot: z.enum(['live', 'dev']),
    attempts: z.number(),
    last_status: z.nullable(z.number()).check(z.meta({ description: 'The HTTP status of the last attempt; null when none came back (timeout, connection refused)' })),
    last_error: z.nullable(z.string()),
    failed_at: instantSchema,
  })
  .check(z.meta({ id: 'WebhookFailure', description: 'A delivery that failed for good, after its last attempt' }));

/** The answer of `GET /v1/webhooks/failures`. */
export const webhookFailureListAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(webhookFailureSchema),
  pagination: boundedPaginationSchema('WebhookFailurePagination'),
});

/** One delivery attempt as the API shows it (shared/notifications/webhooks/delivery-log.ts). */
export const webhookDeliverySchema = z
  .strictObject({
    id: z.string().check(
      z.meta({ description: 'The id of this attempt\'s entry: redeliver its payload with `POST /v1/webhooks/deliveries/{id}/redeliver`', examples: ['whd_MjAyNi0xMS0yNlQwNzo0MToxMi4wMDBaI21zZ181YjBjOGU0YS0yZjFkLTRjM2ItOWE4ZS03ZDZjNWI0YTNmMjEjMDI'] }),
    ),
    delivery_id: z.string().check(z.meta({ description: 'The delivery\'s `webhook-id` header, the same on each of its attempts', examples: ['msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21'] })),
    event: z.string().check(z.meta({ examples: ['email.delivery'] })),
    activity_id: z.nullable(uuidSchema).check(z.meta({ description: 'The activity an email event is about; null for project events (domain.*, sender.*, suppression.*)' })),
    url: z.string().check(z.meta({ description: 'The URL posted to (cut with `…` only when it would not fit the 1 KB entry)' })),
    slot: z.enum(['live', 'dev']).check(z.meta({ description: 'The slot the URL belongs to, sent as `X-Svc-Environment`' })),
    attempt: z.number().check(z.meta({ description: 'Which attempt of the delivery this was (1-based)' })),
    max_attempts: z.number().check(z.meta({ description: 'Attempts the delivery gets in all: 5, or 1 for email.inbound' })),
    outcome: z.enum(['succeeded', 'failed']),
    status: z.nullable(z.number()).check(z.meta({ description: 'The HTTP status the receiver answered; null when none came back' })),
    error_kind: z.nullable(z.enum(['http_status', 'redirect', 'timeout', 'address_refused', 'invalid_url', 'network'])).check(
      z.meta({ description: 'Why a failed attempt failed; null when it succeeded' }),
    ),
    error: z.nullable(z.string()).check(z.meta({ description: 'The error in words (at most 200 characters); null when it succeeded', examples: ['HTTP 503'] })),
    duration_ms: z.number().check(z.meta({ description: 'From the start of the POST to its answer (or to its failure)' })),
    response_excerpt: z.string().check(
      z.meta({ description: 'The first bytes of the response body (at most 512, as UTF-8 text, control characters replaced by spaces); empty when none came back' }),
    ),
    attempted_at: instantSchema,
    redelivery_of: z.nullable(z.string()).check(z.meta({ description: 'The delivery this one redelivers, when it is a redelivery' })),
    redeliverable: z.boolean().check(z.meta({ description: 'Whether the entry holds the payload (gzipped, within the entry\'s 1 KB); false for a payload too big to keep, which cannot be redelivered' })),
  })
  .check(z.meta({ id: 'WebhookDelivery', description: 'One attempt of a webhook delivery, kept 3 days' }));

/** A failed second attempt, as the list's example shows it. */
export const webhookDeliveryExample: z.output<typeof webhookDeliverySchema> = {
  id: 'whd_MjAyNi0xMS0yNlQwNzo0MToxMi4wMDBaI21zZ181YjBjOGU0YS0yZjFkLTRjM2ItOWE4ZS03ZDZjNWI0YTNmMjEjMDI',
  delivery_id: 'msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21',
  event: 'email.delivery',
  activity_id: '3f2b8c1e-9a4d-4f6b-8e2a-7c5d1b0a9e34',
  url: 'https://hooks.example.com/email-events',
  slot: 'live',
  attempt: 2,
  max_attempts: 5,
  outcome: 'failed',
  status: 503,
  error_kind: 'http_status',
  error: 'HTTP 503',
  duration_ms: 184,
  response_excerpt: '{"error":"upstream unavailable"}',
  attempted_at: '2026-11-26T07:41:12.000Z',
  redelivery_of: null,
  redeliverable: true,
};

/** The answer of `GET /v1/webhooks/deliveries`. */
export const webhookDeliveryListAnswerSchema = z.strictObject({
  success: z.literal(true),
  data: z.array(webhookDeliverySchema),
  pagination: boundedPaginationSchema('WebhookDeliveryPagination'),
});

/** The answer of `POST /v1/webhooks/deliveries/{id}/redeliver`. */
export const webhookRedeliveryAnswerSchema = z
  .strictObject({
    success: z.literal(true),
    delivery_id: z.string().check(z.meta({ description: 'The new delivery\'s id (its `webhook-id`)', examples: ['msg_9d41c2b7-6e3a-4f80-b1d5-2a7c8e0f4b96'] })),
    redelivery_of: z.string().check(z.meta({ description: 'The delivery redelivered (its `delivery_id`)', examples: ['msg_5b0c8e4a-2f1d-4c3b-9a8e-7d6c5b4a3f21'] })),
  })
  .check(z.meta({ id: 'WebhookRedelivery', description: 'A redelivery queued: the same payload to the same URL, as a new delivery signed afresh' }));
