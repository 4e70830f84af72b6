import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { writtenUnlessConditionFails } from '../errors';
import type { Db } from '../store/client';
import { inboundMailKey } from '../store/keys';

/** Markers outlive the inbound objects themselves (the bucket expires them after 30 days). */
export const INBOUND_MARKER_DAYS = 30;

/**
 * Claims an inbound mail for its one publish (or bounce): a conditional put of the marker keyed by
 * the S3 object key. False when the marker exists, i.e. a redelivered S3 event of a mail already
 * handled. 1 WCU.
 */
export async function claimInboundMail(db: Db, input: { objectKey: string; outcome: string; activityId: string; at: string; ttl: number }): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...inboundMailKey(input.objectKey), outcome: input.outcome, activity_id: input.activityId, handled_at: input.at, ttl: input.ttl },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** Gives a claim back after its publish or bounce failed, so that the retried event can try again. */
export async function releaseInboundMail(db: Db, objectKey: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: inboundMailKey(objectKey) }));
}
