import type { Needs } from '../../platform/core/dependencies';
import { listCursor, type PageRequest } from '../../platform/http/pagination';
import { pageWebhookFailures, presentWebhookFailure } from './failure-repository';

/** One page of the project's failed webhook deliveries, newest first, as `GET /v1/webhooks/failures` shows them. */
export async function listWebhookFailures(deps: Needs<'db'>, projectId: string, page: PageRequest, query: { cursor?: string }) {
  const { entries, ...listed } = await pageWebhookFailures(deps.db, projectId, page, listCursor(query, page));
  return { failures: entries.map(presentWebhookFailure), listed };
}
