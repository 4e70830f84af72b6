/**
 * The typed Mailroom client: openapi-fetch over the types openapi-typescript generates from
 * openapi/openapi.json (`npm run openapi` at the repository root regenerates them), and
 * `verifyWebhook` for the events the service posts.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { paths, components, operations, webhooks } from './schema';
export { verifyWebhook, WebhookVerificationError } from './webhooks';
export type { VerifyWebhookOptions, WebhookEvent, WebhookEventName, WebhookHeaders, WebhookPayload } from './webhooks';

/** Options of a client: where the API is and the key it calls with. */
export interface MailroomClientOptions {
  /** The API's base URL, e.g. `https://api.example.com` or the local cloud's `base_url`. */
  readonly baseUrl: string;
  /** A project key (`sk_live_`, `sk_proj_`, `sk_test_`) or a partner key (`sk_partner_`). */
  readonly apiKey: string;
  /** A fetch implementation (defaults to the global one). */
  readonly fetch?: typeof fetch;
}

/** A client whose paths, bodies and answers are typed from the OpenAPI document. */
export function createMailroomClient(options: MailroomClientOptions): Client<paths> {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
