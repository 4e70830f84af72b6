import type { Db } from '../../platform/store/client';
import { addCounts } from '../../platform/store/counter-add';
import { AUTOMATION_COUNTER_SHARDS, automationCounterKey } from '../../platform/store/keys';

/**
 * Adds delivery figures to one random shard of an automation's counters (the automation's run
 * gateway owns the rest of that item): one UpdateItem of ADDs, nothing when every increment is 0.
 */
export async function addAutomationStepCounts(db: Db, automationId: string, counts: Readonly<Record<string, number>>, shard = Math.floor(Math.random() * AUTOMATION_COUNTER_SHARDS)): Promise<void> {
  await addCounts(db, automationCounterKey(automationId, shard), counts);
}
