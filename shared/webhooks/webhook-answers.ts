import * as z from '../zod';
import { boundedPaginationSchema, instantSchema, uuidSchema } from '../http/answer-fields';

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
