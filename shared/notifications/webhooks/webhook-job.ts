import type { KeyMode } from '../../platform/security/api-keys';
import type { ServiceEvent } from '../../platform/core/events';

/** Which of the project's two slots a URL belongs to; sent as `X-Svc-Environment`. */
import type { WebhookSlot } from '../../platform/projects/webhook-routing';

export type { WebhookSlot } from '../../platform/projects/webhook-routing';

/** The slot a key's traffic goes to: test-key sends are delivered to the dev slot. */
export const slotOfKeyMode = (mode: KeyMode): WebhookSlot => (mode === 'live' ? 'live' : 'dev');

/** One webhook delivery: one event to one URL (one message on the webhooks queue). */
export interface WebhookJob {
  v: 1;
  /** Stable across retries: the Standard Webhooks `webhook-id`. */
  delivery_id: string;
  project_id: string;
  url: string;
  slot: WebhookSlot;
  event: ServiceEvent;
  /** Attempts in all: 5 for outbound events, 1 for email.inbound (part 6). */
  max_attempts: number;
  /** Set on a redelivery (POST /v1/webhooks/deliveries/{id}/redeliver): the delivery it repeats. */
  redelivery_of?: string;
}

/** Attempts per event kind (part 6: outbound 5, email.inbound 1). */
export function maxAttemptsFor(event: ServiceEvent): number {
  return event.event === 'email.inbound' ? 1 : 5;
}
