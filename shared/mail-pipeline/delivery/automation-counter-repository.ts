import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../../platform/store/client';
import { AUTOMATION_COUNTER_SHARDS, automationCounterKey } from '../../platform/store/keys';

/**
 * Adds delivery figures to one random shard of an automation's counters (the automation's run
 * gateway owns the rest of that item): one UpdateItem of ADDs, nothing when every increment is 0.
 */
export async function addAutomationStepCounts(db: Db, automationId: string, counts: Readonly<Record<string, number>>, shard = Math.floor(Math.random() * AUTOMATION_COUNTER_SHARDS)): Promise<void> {
  const fields = Object.entries(counts).filter(([, n]) => n !== 0);
  if (fields.length === 0) return;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: automationCounterKey(automationId, shard),
      UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(fields.map(([f], i) => [`#f${i}`, f])),
      ExpressionAttributeValues: Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])),
    }),
  );
}
