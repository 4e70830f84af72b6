import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TimelineEvent } from '../activity/activity';
import { putIfAbsent } from '../../platform/store/aggregate';
import { stripKeys, type Db } from '../../platform/store/client';
import { ENGAGEMENT_SK_PREFIX, activityPartition, engagementEventKey } from '../../platform/store/keys';

/** True when this open or click was already recorded. */
export async function engagementRecorded(db: Db, activityId: string, event: TimelineEvent): Promise<boolean> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: engagementEventKey(activityId, event.event_timestamp, event.id), ProjectionExpression: 'pk' }));
  return Boolean(out.Item);
}

/** Stores an open or click beside its activity; false when it was already there. */
export async function putEngagement(db: Db, activityId: string, event: TimelineEvent, ttl: number): Promise<boolean> {
  return putIfAbsent(db, { ...engagementEventKey(activityId, event.event_timestamp, event.id), ...event, ttl });
}

/** Every open and click of an activity, oldest first. */
export async function listEngagement(db: Db, activityId: string): Promise<TimelineEvent[]> {
  const out = await db.doc.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': activityPartition(activityId), ':prefix': ENGAGEMENT_SK_PREFIX },
    }),
  );
  return (out.Items ?? []).map((i) => stripKeys<TimelineEvent>(i));
}
