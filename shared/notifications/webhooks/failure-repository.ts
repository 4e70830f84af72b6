import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { stripKeys, type Db } from '../../platform/store/client';
import type { BoundedTotal } from '../../platform/http/pagination';
import { cursorOfStartKey, readBoundedPage } from '../../platform/store/bounded-list';
import { startKeyOfCursor } from '../../platform/http/cursor';
import { WEBHOOK_FAILURE_SK_PREFIX, projectKey, webhookFailureKey } from '../../platform/store/keys';
import type { WebhookSlot } from './webhook-job';

/** Days a failed delivery stays on the project's list. */
export const WEBHOOK_FAILURE_RETENTION_DAYS = 30;

/** A delivery that failed for good (after its last attempt), as the project sees it. */
export interface WebhookFailure {
  project_id: string;
  delivery_id: string;
  event: string;
  activity_id: string | null;
  url: string;
  slot: WebhookSlot;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  failed_at: string;
}

/** Records a failed delivery; `ttl` (epoch seconds) removes it after the retention period. */
export async function putWebhookFailure(db: Db, failure: WebhookFailure, ttl: number): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: { ...webhookFailureKey(failure.project_id, failure.failed_at, failure.delivery_id), ...failure, ttl },
    }),
  );
}

/**
 * One page of a project's failed deliveries, newest first, from the list's start (offset pages) or
 * a cursor's start key, with its bounded total (shared/platform/store/bounded-list.ts).
 */
export async function pageWebhookFailures(
  db: Db,
  projectId: string,
  page: { page: number; perPage: number },
  cursor: string | undefined,
): Promise<{ entries: WebhookFailure[] } & BoundedTotal> {
  const pk = projectKey(projectId).pk;
  const base = {
    TableName: db.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': WEBHOOK_FAILURE_SK_PREFIX },
    ScanIndexForward: false,
  };
  const from = startKeyOfCursor(cursor, ['pk', 'sk'], (k) => k.pk === pk && k.sk.startsWith(WEBHOOK_FAILURE_SK_PREFIX));
  const listed = await readBoundedPage(db, base, page, from);
  return { entries: listed.items.map((item) => stripKeys<WebhookFailure>(item)), total: listed.total, totalIsEstimate: listed.totalIsEstimate, nextCursor: cursorOfStartKey(listed.next) };
}

/** A failed delivery as GET /v1/webhooks/failures shows it. */
export function presentWebhookFailure(failure: WebhookFailure) {
  return {
    delivery_id: failure.delivery_id,
    event: failure.event,
    activity_id: failure.activity_id ?? null,
    url: failure.url,
    slot: failure.slot,
    attempts: failure.attempts,
    last_status: failure.last_status ?? null,
    last_error: failure.last_error ?? null,
    failed_at: failure.failed_at,
  };
}
