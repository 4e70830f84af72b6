import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { expiryOf, putIfAbsent } from '../../platform/store/aggregate';
import { inboundMail } from '../../platform/store/aggregates/mail';
import type { Db } from '../../platform/store/client';
import { inboundMailKey } from '../../platform/store/keys';

/**
 * Claims an inbound mail for its one publish (or bounce): a conditional put of the marker keyed by
 * the S3 object key. False when the marker exists, i.e. a redelivered S3 event of a mail already
 * handled. 1 WCU.
 */
export function claimInboundMail(db: Db, input: { objectKey: string; outcome: string; activityId: string; now: Date }): Promise<boolean> {
  // The marker outlives the inbound object itself (the bucket expires them after 30 days).
  return putIfAbsent(db, { ...inboundMailKey(input.objectKey), outcome: input.outcome, activity_id: input.activityId, handled_at: input.now.toISOString(), ttl: expiryOf(inboundMail, 'markers', input.now) });
}

/** Gives a claim back after its publish or bounce failed, so that the retried event can try again. */
export async function releaseInboundMail(db: Db, objectKey: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: inboundMailKey(objectKey) }));
}
