/**
 * A worker's scope (BatchScope, shared/platform/queue-worker/batch-handler.ts): what the records of one SQS
 * batch share, the services and the counters several features gather and write once at its end.
 * The features stay unaware of each other; composition/ puts their batch objects side by side. One
 * file per worker, so a function reaches only its own scope (its settings and bundle stay its own).
 */
import type { WebhookPoster } from '../../shared/platform/adapters/webhook-poster';
import type { Services } from '../../shared/platform/core/dependencies';
import type { BatchScope } from '../../shared/platform/queue-worker/batch-handler';
import { services } from '../services';

/** The webhook delivery worker's batch: the services and a poster that honours ALLOW_PRIVATE_URLS. */
export interface WebhookDeliveryBatch {
  readonly deps: Services;
  readonly poster: WebhookPoster;
}

/**
 * The webhook delivery worker's scope. The poster is built per batch from the configuration
 * (ALLOW_PRIVATE_URLS, which allows loopback only), so overridden services take effect at once.
 */
export function webhookDeliveryScope(posterFor: (allowLoopback: boolean) => WebhookPoster): BatchScope<WebhookDeliveryBatch> {
  return {
    start: () => {
      const deps = services();
      return { deps, poster: posterFor(deps.config.ALLOW_PRIVATE_URLS === 'true') };
    },
  };
}
