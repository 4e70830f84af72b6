import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../../../platform/store/client';
import { writtenUnlessConditionFails } from '../../../platform/store/conditional-write';
import { campaignRateKey } from '../../../platform/store/keys';

/**
 * The campaigns' shared send budget (pacing.ts): one `RATE#campaigns` item per window, keyed by
 * the window's first epoch second, holding the mails `taken` from it; kept an hour past the window.
 */

/** How long a window's item outlives the window, in seconds. */
const WINDOW_ITEM_SECONDS = 3600;

/**
 * Adds `n` to the window's taken mails if at most `capacity - n` were taken before (one
 * conditional ADD); false when they would not fit.
 */
export function takeFromWindow(db: Db, window: number, n: number, capacity: number): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: campaignRateKey(window),
        UpdateExpression: 'ADD taken :n SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(taken) OR taken <= :room',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':n': n, ':room': capacity - n, ':ttl': window + WINDOW_ITEM_SECONDS },
      }),
    ),
  );
}

/** The mails taken from the window so far (read strongly consistent). */
export async function takenInWindow(db: Db, window: number): Promise<number> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: campaignRateKey(window), ConsistentRead: true }));
  return Number(out.Item?.taken ?? 0);
}

/** Gives `n` mails back to the window; nothing when the window has no item (nothing was taken from it). */
export async function giveBackToWindow(db: Db, window: number, n: number): Promise<void> {
  await writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: campaignRateKey(window),
        UpdateExpression: 'ADD taken :n',
        ConditionExpression: 'attribute_exists(taken)',
        ExpressionAttributeValues: { ':n': -n },
      }),
    ),
  );
}
