/**
 * The run gateway: the one module that reads and writes a run, its timeline, its entry marker, its
 * places in the due, lead and list indexes, its hold, and an automation's counters
 * (shared/platform/store/aggregates/automation.ts declares them; docs/automations.md, "How runs move").
 */
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { applyTransition, putIfAbsent, type TransitionValues } from '../../platform/store/aggregate';
import { automationRunLifecycle } from '../../platform/store/aggregates/automation';
import { batchGetAll } from '../../platform/store/batch-get';
import { addCounts } from '../../platform/store/counter-add';
import { stripKeys, ttlAfterDays, type Db } from '../../platform/store/client';
import { writtenUnlessConditionFails } from '../../platform/store/conditional-write';
import {
  automationSweepCursorKey,
  AUTOMATION_COUNTER_SHARDS,
  AUTOMATION_RUN_RETENTION_DAYS,
  automationCounterKey,
  automationCounterKeys,
  automationDueIndex,
  automationDuePartitions,
  automationEntryKey,
  automationHeldPartitions,
  automationHeldRunKey,
  automationLeadRunIndex,
  automationLeadRunPartition,
  automationRunKey,
  automationRunListIndex,
  automationRunListPartitions,
  automationStepKey,
  AUTOMATION_STEP_SK_PREFIX,
  parseAutomationDueSortKey,
} from '../../platform/store/keys';
import type { Reentry } from './definition';
import type { AutomationRun, RunStepEntry } from './run';

const RUN_INDEX_ATTRIBUTES = ['gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk', 'gsi6pk', 'gsi6sk'];

/** A run item without its key and index attributes. */
function runOf(item: Record<string, unknown>): AutomationRun {
  const run = stripKeys<Record<string, unknown>>(item);
  for (const name of RUN_INDEX_ATTRIBUTES) delete run[name];
  return run as unknown as AutomationRun;
}

/** The due index's attributes of a run waiting until `dueAt`. */
export const dueIndexOf = (runId: string, dueAt: string) => automationDueIndex(dueAt, runId);

/**
 * Writes a new run (listed in its automation's runs and its lead's live runs; in the due index too
 * when it starts later, `dueAt`); false when the run exists (the same entry delivered again).
 */
export function putNewRun(db: Db, run: AutomationRun, dueAt?: string): Promise<boolean> {
  return putIfAbsent(db, {
    ...automationRunKey(run.id),
    ...run,
    ...automationLeadRunIndex(run.project_id, run.lead_id, run.automation_id, run.id),
    ...automationRunListIndex(run.automation_id, run.started_at, run.id),
    ...(dueAt ? dueIndexOf(run.id, dueAt) : {}),
  });
}

/** A run by id, or undefined; the engine reads it strongly consistent (its seq is the fence). */
export async function getRun(db: Db, runId: string, consistent = false): Promise<AutomationRun | undefined> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: automationRunKey(runId), ConsistentRead: consistent }));
  return out.Item ? runOf(out.Item) : undefined;
}

/** Runs by id (absent ones left out), for lists. */
export async function getRuns(db: Db, runIds: readonly string[]): Promise<AutomationRun[]> {
  const items = await batchGetAll(db, runIds.map((id) => ({ ...automationRunKey(id) })));
  return items.map(runOf);
}

/**
 * Records a lead's entry under the re-entry rule, in its marker: `once` only when it never entered,
 * `after_days` when its last entry is older than `days`; either way also when the marker's last key
 * is this entry's (a redelivery of the entry that wrote it). False: the rule refuses the entry.
 */
export function claimEntry(db: Db, input: { automationId: string; leadId: string; key: string; now: Date; reentry: Exclude<Reentry, 'every_time'>; days?: number }): Promise<boolean> {
  const cutoff = new Date(input.now.getTime() - (input.days ?? 0) * 86_400_000).toISOString();
  const older = input.reentry === 'after_days' ? ' OR last_at < :cutoff' : '';
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: automationEntryKey(input.automationId, input.leadId),
        UpdateExpression: 'SET last_at = :now, last_key = :key ADD entries :one',
        ConditionExpression: `attribute_not_exists(pk) OR last_key = :key${older}`,
        ExpressionAttributeValues: { ':now': input.now.toISOString(), ':key': input.key, ':one': 1, ...(older ? { ':cutoff': cutoff } : {}) },
      }),
    ),
  );
}

/** When each lead last entered an automation (leads that never did are absent). */
export async function lastEntries(db: Db, automationId: string, leadIds: readonly string[]): Promise<Map<string, string>> {
  const items = await batchGetAll(db, leadIds.map((id) => ({ ...automationEntryKey(automationId, id) })));
  const out = new Map<string, string>();
  for (const item of items) out.set(String(item.pk).split('#')[2], String(item.last_at));
  return out;
}

/**
 * Puts timeline entry `seq` unless it exists: the step's decision, written before its effect. A
 * redo finds the first one and follows it (its branch, its wait, its step), so a step decides once.
 */
export async function putStepEntry(db: Db, entry: RunStepEntry, now: Date): Promise<{ entry: RunStepEntry; fresh: boolean }> {
  const item = { ...automationStepKey(entry.run_id, entry.seq), ...entry, ttl: ttlAfterDays(now, AUTOMATION_RUN_RETENTION_DAYS) };
  if (await putIfAbsent(db, item)) return { entry, fresh: true };
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: automationStepKey(entry.run_id, entry.seq), ConsistentRead: true }));
  return { entry: stripKeys<RunStepEntry>(out.Item ?? item), fresh: false };
}

/** A run's timeline, oldest first (a run has at most a few hundred entries: the query pages through them). */
export async function runTimeline(db: Db, runId: string): Promise<RunStepEntry[]> {
  const entries: RunStepEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': automationRunKey(runId).pk, ':prefix': AUTOMATION_STEP_SK_PREFIX },
        ExclusiveStartKey: start,
      }),
    );
    entries.push(...(out.Items ?? []).map((item) => stripKeys<RunStepEntry>(item)));
    start = out.LastEvaluatedKey;
  } while (start);
  return entries;
}

type RunMove = keyof typeof automationRunLifecycle.transitions & string;

/** Applies a run move fenced by its seq: false when the run moved since it was read (or ended). */
export function moveRun<N extends RunMove>(db: Db, runId: string, name: N, values: TransitionValues<(typeof automationRunLifecycle.transitions)[N]>, seq: number): Promise<boolean> {
  return applyTransition(db, automationRunLifecycle, name, automationRunKey(runId), values, { expression: '#seq = :seq', names: { '#seq': 'seq' }, values: { ':seq': seq } });
}

/** Ends a live run wherever it is (an exit rule): false when it had ended already. */
export function endRun(db: Db, runId: string, values: TransitionValues<(typeof automationRunLifecycle.transitions)['exit']>): Promise<boolean> {
  return applyTransition(db, automationRunLifecycle, 'exit', automationRunKey(runId), values);
}

/** The ttl an ended run gets. */
export const endedRunTtl = (now: Date): number => ttlAfterDays(now, AUTOMATION_RUN_RETENTION_DAYS);

/**
 * Takes a held run out of the due index (fenced by seq), so the sweep stops waking it while its
 * automation is paused; its due time stays on the run, and the release wakes it.
 */
export function leaveDueIndex(db: Db, runId: string, seq: number): Promise<boolean> {
  return writtenUnlessConditionFails(
    db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: automationRunKey(runId),
        UpdateExpression: 'REMOVE gsi5pk, gsi5sk',
        ConditionExpression: '#seq = :seq AND attribute_exists(gsi5pk)',
        ExpressionAttributeNames: { '#seq': 'seq' },
        ExpressionAttributeValues: { ':seq': seq },
      }),
    ),
  );
}

/** Holds a run that woke while its automation is paused, at the seq it reached. */
export async function holdRun(db: Db, automationId: string, runId: string, seq: number): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...automationHeldRunKey(automationId, runId), run_id: runId, seq } }));
}

/** A page of one shard of an automation's held runs, and where the next page starts. */
export async function heldRuns(db: Db, automationId: string, shard: number, start: Record<string, unknown> | undefined, limit: number): Promise<{ held: { runId: string; seq: number }[]; next?: Record<string, unknown> }> {
  const out = await db.doc.send(
    new QueryCommand({ TableName: db.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': automationHeldPartitions(automationId)[shard] }, ExclusiveStartKey: start, Limit: limit }),
  );
  return { held: (out.Items ?? []).map((item) => ({ runId: String(item.run_id), seq: Number(item.seq) })), next: out.LastEvaluatedKey };
}

/** Deletes held runs once their steps are queued again (25 to a request). */
export async function releaseHeldRuns(db: Db, automationId: string, runIds: readonly string[]): Promise<void> {
  for (let i = 0; i < runIds.length; i += 25) {
    const chunk = runIds.slice(i, i + 25).map((runId) => ({ DeleteRequest: { Key: automationHeldRunKey(automationId, runId) } }));
    let pending: typeof chunk | undefined = chunk;
    for (let round = 0; pending && pending.length > 0 && round < 5; round++) {
      const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } }));
      pending = out.UnprocessedItems?.[db.tableName] as typeof chunk | undefined;
    }
  }
}

/** Deletes one held run. */
export async function deleteHeldRun(db: Db, automationId: string, runId: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: automationHeldRunKey(automationId, runId) }));
}

/** A lead's live runs in a project (gsi4, keys only): their automation and run ids. */
export async function liveRunsOfLead(db: Db, projectId: string, leadId: string): Promise<{ automationId: string; runId: string }[]> {
  const part = automationLeadRunPartition(projectId, leadId);
  const runs: { automationId: string; runId: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new QueryCommand({ TableName: db.tableName, IndexName: part.index, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': part.pkName }, ExpressionAttributeValues: { ':pk': part.pk }, ExclusiveStartKey: start }),
    );
    for (const item of out.Items ?? []) {
      const [automationId, runId] = String(item[part.skName]).split('#');
      runs.push({ automationId, runId });
    }
    start = out.LastEvaluatedKey;
  } while (start);
  return runs;
}

/** The minute sweep's cursor: per due shard, the sort key it has queued wakes through (none yet: from the start). */
export async function readSweepCursor(db: Db): Promise<Record<string, string>> {
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: automationSweepCursorKey(), ConsistentRead: true }));
  return (out.Item?.shards as Record<string, string> | undefined) ?? {};
}

/** Records the sweep's cursor (one item for the deployment, written once a minute). */
export async function saveSweepCursor(db: Db, shards: Record<string, string>): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...automationSweepCursorKey(), shards } }));
}

/**
 * Runs due after each shard's cursor and up to `until`, at most `perShard` a shard (oldest first),
 * and each shard's new cursor: the last entry read when the shard had more, else the bound itself.
 */
export async function dueRuns(db: Db, cursor: Readonly<Record<string, string>>, until: Date, perShard: number): Promise<{ due: { runId: string; dueAt: string }[]; cursor: Record<string, string> }> {
  const bound = `${until.toISOString()}#~`;
  const pages = await Promise.all(
    automationDuePartitions().map(async (pk) => {
      // Every sort key has the same length, so the first key after `after` is at least after + \u0001.
      const after = cursor[pk];
      const from = after === undefined ? '0' : `${after}\u0001`;
      if (from > bound) return { pk, items: [] as Record<string, unknown>[], position: after as string };
      const out = await db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: 'gsi5',
          KeyConditionExpression: 'gsi5pk = :pk AND gsi5sk BETWEEN :from AND :until',
          ExpressionAttributeValues: { ':pk': pk, ':from': from, ':until': bound },
          Limit: perShard,
        }),
      );
      const items = out.Items ?? [];
      return { pk, items, position: out.LastEvaluatedKey && items.length > 0 ? String(items[items.length - 1].gsi5sk) : bound };
    }),
  );
  const due = pages.flatMap((page) => page.items.map((item) => parseAutomationDueSortKey(String(item.gsi5sk))).filter((entry): entry is { runId: string; dueAt: string } => entry !== undefined));
  return { due, cursor: Object.fromEntries(pages.map((page) => [page.pk, page.position])) };
}

/**
 * Ids of an automation's runs newest first after `after` (a list index sort key), merged over its
 * shards: `limit` of them, and the sort key of the last (the next page's `after`) when more may follow.
 */
export async function runIdsPage(db: Db, automationId: string, after: string | undefined, limit: number): Promise<{ ids: string[]; last?: string }> {
  const parts = automationRunListPartitions(automationId);
  const pages = await Promise.all(
    parts.pks.map((pk) =>
      db.doc.send(
        new QueryCommand({
          TableName: db.tableName,
          IndexName: parts.index,
          KeyConditionExpression: after ? '#pk = :pk AND #sk < :after' : '#pk = :pk',
          ExpressionAttributeNames: { '#pk': parts.pkName, ...(after ? { '#sk': parts.skName } : {}) },
          ExpressionAttributeValues: { ':pk': pk, ...(after ? { ':after': after } : {}) },
          ScanIndexForward: false,
          Limit: limit + 1,
        }),
      ),
    ),
  ).then((outs) => outs.map((out) => ({ sks: (out.Items ?? []).map((item) => String(item[parts.skName])), more: Boolean(out.LastEvaluatedKey) })));
  // A shard that stopped at its limit may hold entries newer than another shard's last: the page ends
  // at the newest such cut, so nothing is skipped between pages.
  const sks = pages.flatMap((p) => p.sks).sort().reverse();
  const cut = pages.filter((p) => p.more && p.sks.length > 0).map((p) => p.sks[p.sks.length - 1]).sort().reverse()[0];
  const kept = sks.filter((sk) => cut === undefined || sk >= cut).slice(0, limit);
  const more = kept.length < sks.length || cut !== undefined;
  return { ids: kept.map((sk) => sk.slice(sk.indexOf('#') + 1)), last: more && kept.length > 0 ? kept[kept.length - 1] : undefined };
}

/** A counter shard picked at random, so that concurrent workers rarely meet on one item. */
export const randomAutomationCounterShard = (): number => Math.floor(Math.random() * AUTOMATION_COUNTER_SHARDS);

/** Adds increments (counter attribute -> n) to one shard of an automation's counters: one UpdateItem, nothing when all are 0. */
export async function addAutomationCounts(db: Db, automationId: string, counts: Readonly<Record<string, number>>, shard = randomAutomationCounterShard()): Promise<void> {
  await addCounts(db, automationCounterKey(automationId, shard), counts);
}

/** An automation's counters summed over its shards (one BatchGet of 16 keys): counter attribute -> total. */
export async function readAutomationCounts(db: Db, automationId: string): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  const items = await batchGetAll(db, automationCounterKeys(automationId).map((key) => ({ ...key })));
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      if (name === 'pk' || name === 'sk' || typeof value !== 'number') continue;
      totals.set(name, (totals.get(name) ?? 0) + value);
    }
  }
  return totals;
}
