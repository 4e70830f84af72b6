import { defineAggregate, defineLifecycle, days, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { allShards, shardOf, type ShardedListPartitions } from './shards';

/**
 * Shards of the deployment-wide automation due index (gsi5, keys only): a million runs entering a
 * two-day wait within one minute write about 16,700 entries a second, about 520 a shard, under a
 * partition's 1,000 writes a second.
 */
export const AUTOMATION_DUE_SHARDS = 32;
/** Shards of an automation's run list (gsi6, keys only): the same million-a-minute entry writes about 520 entries a shard a second. */
export const AUTOMATION_RUN_LIST_SHARDS = 32;
/** Shards of an automation's counters: each worker batch adds its tallies to one random shard. */
export const AUTOMATION_COUNTER_SHARDS = 16;
/** Shards of an automation's held runs (runs that woke while it was paused). */
export const AUTOMATION_HELD_SHARDS = 16;
/** Days a run's items (the run, its timeline) stay after the run ends. */
export const AUTOMATION_RUN_RETENTION_DAYS = 180;

/** Key of an automation: its name, status, current version and summary (the definition is in its version items). */
export const automationKey = (automationId: string): ItemKey => ({ pk: `AUTO#${automationId}`, sk: 'AUTO' });

/** Key of one version of an automation's definition (trigger, entry, exit, steps); immutable once a run started on it. */
export const automationVersionKey = (automationId: string, version: number): ItemKey => ({ pk: `AUTO#${automationId}`, sk: `VER#${String(version).padStart(6, '0')}` });

/** gsi1 attributes of an automation: its project's automations, newest first. Automations are few and rarely written: one partition. */
export const automationListIndex = (projectId: string, createdAt: string, automationId: string) => ({ gsi1pk: `AUTOS#${projectId}`, gsi1sk: `${createdAt}#${automationId}` });

/** The gsi1 partition of a project's automations. */
export const automationListPartition = (projectId: string) => ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: `AUTOS#${projectId}` });

/**
 * Key of an active automation's entry in its project's trigger table: what starts it, what ends its
 * runs, which events its waits listen for. Written at activation (and at an active automation's
 * edit), deleted at pause and archive; the dispatcher reads the partition (cached) to decide whether
 * a lead's event, tag or segment entry concerns any automation at all.
 */
export const automationTriggerKey = (projectId: string, automationId: string): ItemKey => ({ pk: `AUTOTRIG#${projectId}`, sk: automationId });

/** The partition of a project's active triggers. */
export const automationTriggerPartition = (projectId: string): string => `AUTOTRIG#${projectId}`;

/** gsi1 attributes of a date-triggered automation's trigger entry: the deployment's active date triggers, which the daily walk reads. */
export const automationDateTriggerIndex = (automationId: string) => ({ gsi1pk: 'AUTODATES', gsi1sk: automationId });

/** The gsi1 partition of every active date-triggered automation of the deployment. */
export const automationDateTriggerPartition = () => ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: 'AUTODATES' });

/**
 * Key of a lead's entry marker in an automation (re-entry rules): when it last entered, how often,
 * and the trigger key of that entry (so a redelivered entry finds its own marker). One partition per
 * (automation, lead): a million entries a minute touch a million partitions, not one.
 */
export const automationEntryKey = (automationId: string, leadId: string): ItemKey => ({ pk: `AUTOENTRY#${automationId}#${leadId}`, sk: 'ENTRY' });

/** Key of a run (one lead's pass through one version of an automation). */
export const automationRunKey = (runId: string): ItemKey => ({ pk: `AUTORUN#${runId}`, sk: 'RUN' });

/** Sort key of a run's timeline entry `seq` (the run's seq-th step, from 1): ordered, and the at-most-once marker of that step. */
export const automationStepSortKey = (seq: number): string => `STEP#${String(seq).padStart(5, '0')}`;

/** Key of a run's timeline entry `seq`. */
export const automationStepKey = (runId: string, seq: number): ItemKey => ({ pk: `AUTORUN#${runId}`, sk: automationStepSortKey(seq) });

/** Prefix of a run's timeline entries. */
export const AUTOMATION_STEP_SK_PREFIX = 'STEP#';

/** gsi6 attributes of a run: its automation's runs, newest first. Written once, at the run's creation. */
export const automationRunListIndex = (automationId: string, startedAt: string, runId: string) => ({
  gsi6pk: `AUTORUNS#${automationId}#${shardOf(runId, AUTOMATION_RUN_LIST_SHARDS)}`,
  gsi6sk: `${startedAt}#${runId}`,
});

/** The gsi6 partitions of an automation's runs. */
export const automationRunListPartitions = (automationId: string): ShardedListPartitions => ({
  index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pks: allShards(AUTOMATION_RUN_LIST_SHARDS).map((s) => `AUTORUNS#${automationId}#${s}`),
});

/**
 * gsi4 attributes of a live run: its lead's live runs in the project, which exit rules and
 * wait-for-event steps look up when the lead's event arrives. Removed when the run ends.
 */
export const automationLeadRunIndex = (projectId: string, leadId: string, automationId: string, runId: string) => ({ gsi4pk: `AUTOLEAD#${projectId}#${leadId}`, gsi4sk: `${automationId}#${runId}` });

/** The gsi4 partition of a lead's live runs. */
export const automationLeadRunPartition = (projectId: string, leadId: string) => ({ index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: `AUTOLEAD#${projectId}#${leadId}` });

/** gsi5 attributes of a run waiting until `dueAt` (ISO UTC) for longer than a queue delay can hold; removed when it wakes. */
export const automationDueIndex = (dueAt: string, runId: string) => ({ gsi5pk: `AUTODUE#${shardOf(runId, AUTOMATION_DUE_SHARDS)}`, gsi5sk: `${dueAt}#${runId}` });

/** gsi5 partitions of the automation due index; the sweep reads them all. */
export const automationDuePartitions = (): string[] => allShards(AUTOMATION_DUE_SHARDS).map((s) => `AUTODUE#${s}`);

/** Reads a due-index sort key back into its time and run id; undefined for anything this module did not write. */
export function parseAutomationDueSortKey(sortKey: string): { runId: string; dueAt: string } | undefined {
  const cut = sortKey.indexOf('#');
  if (cut < 0) return undefined;
  const dueAt = sortKey.slice(0, cut);
  const runId = sortKey.slice(cut + 1);
  if (Number.isNaN(Date.parse(dueAt)) || runId === '') return undefined;
  return { runId, dueAt };
}

/**
 * Key of the minute sweep's cursor: per due shard, the due-index sort key it has queued wakes
 * through. Every due entry is written at least 15 minutes ahead of its writer's clock (a wake a
 * queue message carries sits past SQS's longest delay), so an entry never lands behind the cursor,
 * and a run still due because the engine is behind is not queued again every minute.
 */
export const automationSweepCursorKey = (): ItemKey => ({ pk: 'AUTOSWEEP', sk: 'CURSOR' });

/** Key of a run held because it woke while its automation was paused; released (deleted) at resume. */
export const automationHeldRunKey = (automationId: string, runId: string): ItemKey => ({ pk: `AUTOHELD#${automationId}#${shardOf(runId, AUTOMATION_HELD_SHARDS)}`, sk: runId });

/** The partitions of an automation's held runs. */
export const automationHeldPartitions = (automationId: string): string[] => allShards(AUTOMATION_HELD_SHARDS).map((s) => `AUTOHELD#${automationId}#${s}`);

/** Counter attribute of a run total (`entered`, `waiting`, `completed`, `exited`, `failed`, `dropped`) in an automation's counter item. */
export const automationRunCounter = (field: string): string => `r_${field}`;

/** Counter attribute of one step's figure (`entered`, `completed`, `exited`, `failed`, `sent`, `delivered`, `opened`, `clicked`); step ids are letters, digits, `_` and `-`. */
export const automationStepCounter = (stepId: string, field: string): string => `s_${field}_${stepId}`;

/** Key of one shard of an automation's counters (runs by state, and per step: entered, completed, exited, mails sent, delivered, opened, clicked). */
export const automationCounterKey = (automationId: string, shard: number): ItemKey => ({ pk: `AUTOSTAT#${automationId}#${shard}`, sk: 'COUNTS' });

/** Keys of every shard of an automation's counters (BatchGet and sum). */
export const automationCounterKeys = (automationId: string): ItemKey[] => allShards(AUTOMATION_COUNTER_SHARDS).map((s) => automationCounterKey(automationId, s));

/** An automation's moves (the automation gateway applies them). */
export const automationLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'automation',
  transitions: {
    /** From a draft or a paused automation whose current version passed the activation checks (and whose template uses are recorded). */
    activate: { from: ['draft', 'paused'], to: 'active', set: ['activated_at', 'updated_at', 'template_uses'], increment: ['revision'] },
    pause: { from: ['active'], to: 'paused', set: ['paused_at', 'updated_at'], increment: ['revision'] },
    /** Runs in flight end (reason `archived`) when they next wake; nothing is sent for them any more. */
    archive: { from: ['draft', 'active', 'paused'], to: 'archived', set: ['archived_at', 'updated_at'], increment: ['revision'] },
  },
});

/** A run's moves (the run gateway applies them); a move that ends a run leaves the lead's live-run index and the due index. */
export const automationRunLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'automation run',
  stateField: 'state',
  transitions: {
    /** The run moves on to its next step (fenced by `seq` as well). */
    advance: { from: ['active', 'waiting'], to: 'active', set: ['step', 'seq', 'sends', 'updated_at'], remove: ['gsi5pk', 'gsi5sk', 'due_at', 'wait_event'] },
    /** The run waits: until a time (a due entry, or a queue delay for short waits) or for an event. */
    wait: { from: ['active', 'waiting'], to: 'waiting', set: ['step', 'seq', 'sends', 'due_at', 'wait_event', 'updated_at', 'gsi5pk', 'gsi5sk'] },
    complete: { from: ['active', 'waiting'], to: 'completed', set: ['ended_at', 'end_reason', 'updated_at', 'ttl'], remove: ['gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk', 'due_at', 'wait_event'] },
    /** An exit rule (goal event, segment left), an exit step, or the automation's archive. */
    exit: { from: ['active', 'waiting'], to: 'exited', set: ['ended_at', 'end_reason', 'updated_at', 'ttl'], remove: ['gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk', 'due_at', 'wait_event'] },
    fail: { from: ['active', 'waiting'], to: 'failed', set: ['ended_at', 'end_reason', 'error', 'updated_at', 'ttl'], remove: ['gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk', 'due_at', 'wait_event'] },
  },
});

/** An automation (its versions and its project's trigger table); see docs/automations.md. */
export const automation = /* @__PURE__ */ defineAggregate({
  name: 'automation',
  keys: { automationKey, automationVersionKey, automationListIndex, automationListPartition, automationTriggerKey, automationTriggerPartition, automationDateTriggerIndex, automationDateTriggerPartition, automationCounterKey, automationCounterKeys, AUTOMATION_COUNTER_SHARDS, automationRunCounter, automationStepCounter },
  indexes: ['gsi1'],
  lifecycle: automationLifecycle,
});

/** A run of an automation for one lead: the run, its timeline, its entry marker, its places in the due, lead and list indexes, its hold. */
export const automationRun = /* @__PURE__ */ defineAggregate({
  name: 'automation run',
  keys: {
    automationRunKey, automationStepKey, automationStepSortKey, AUTOMATION_STEP_SK_PREFIX, automationEntryKey, automationRunListIndex, automationRunListPartitions, AUTOMATION_RUN_LIST_SHARDS,
    automationLeadRunIndex, automationLeadRunPartition, automationDueIndex, automationDuePartitions, parseAutomationDueSortKey, AUTOMATION_DUE_SHARDS, automationSweepCursorKey, automationHeldRunKey, automationHeldPartitions, AUTOMATION_HELD_SHARDS, AUTOMATION_RUN_RETENTION_DAYS,
  },
  indexes: ['gsi4', 'gsi5', 'gsi6'],
  ttl: [
    { attribute: 'ttl', items: 'ended runs', seconds: /* @__PURE__ */ days(180) },
    { attribute: 'ttl', items: 'timeline entries (from their write)', seconds: /* @__PURE__ */ days(180) },
  ],
  lifecycle: automationRunLifecycle,
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md). */
export const automationAccessPatterns: Record<string, readonly AccessPattern[]> = {
  automation: [
    { pattern: 'Automation', pk: 'AUTO#<automationId>', sk: 'AUTO', operation: 'Put, GetItem, conditional UpdateItem (status moves, edits)', wcu: '1 + 1 (gsi1) per write; never per run' },
    { pattern: 'Automation version (definition)', pk: 'AUTO#<automationId>', sk: 'VER#<version>', operation: 'Put at creation and at each edit; GetItem by the engine (cached: versions never change once used)', wcu: '1 to 3 per edit (definitions up to 64 KB)' },
    { pattern: 'Automations of a project (gsi1)', pk: 'gsi1pk AUTOS#<p>', sk: 'gsi1sk <created>#<id>', operation: 'Query desc', wcu: "(in the automation's writes)" },
    { pattern: "Project's active triggers", pk: 'AUTOTRIG#<p>', sk: '<automationId>', operation: 'Put at activation, Delete at pause and archive; Query by the dispatcher (cached)', wcu: '1 per activation' },
    { pattern: 'Active date triggers (gsi1)', pk: 'gsi1pk AUTODATES', sk: 'gsi1sk <automationId>', operation: 'Query by the daily date walk', wcu: '(in the trigger entry write)' },
    { pattern: 'Automation counters', pk: 'AUTOSTAT#<automationId>#<shard>', sk: 'COUNTS', operation: 'ADD once per worker batch, random shard; BatchGet of all 16', wcu: '1 per batch of runs or mail events' },
  ],
  automationRun: [
    { pattern: 'Entry marker', pk: 'AUTOENTRY#<automationId>#<leadId>', sk: 'ENTRY', operation: 'conditional Put/Update at entry (re-entry once, after N days; none for every time)', wcu: '1 per entry' },
    { pattern: 'Run', pk: 'AUTORUN#<runId>', sk: 'RUN', operation: 'conditional Put at entry, consistent GetItem and conditional UpdateItem (fenced by seq) per step', wcu: '1 per step (+1 gsi4 at start and end, +1 gsi5 per long wait set and cleared, +1 gsi6 at start)' },
    { pattern: 'Run timeline entry (step marker)', pk: 'AUTORUN#<runId>', sk: 'STEP#<seq>', operation: 'Put per step (the step happens at most once: its effect is keyed by run and seq); Query for the timeline', wcu: '1 per step (TTL 180 d)' },
    { pattern: 'Runs of an automation (gsi6)', pk: 'gsi6pk AUTORUNS#<automationId>#<shard>', sk: 'gsi6sk <started>#<runId>', operation: 'Query desc over 32 shards, merged', wcu: '(in the run write)' },
    { pattern: "Lead's live runs (gsi4)", pk: 'gsi4pk AUTOLEAD#<p>#<leadId>', sk: 'gsi4sk <automationId>#<runId>', operation: 'Query when the lead has an event an exit rule or a wait listens for', wcu: '(in the run write)' },
    { pattern: 'Automation due index (gsi5)', pk: 'gsi5pk AUTODUE#<shard>', sk: 'gsi5sk <due>#<runId>', operation: 'Query by the minute sweep (due within its lookahead)', wcu: '(in the run write)' },
    { pattern: "The minute sweep's cursor", pk: 'AUTOSWEEP', sk: 'CURSOR', operation: 'GetItem and Put once a minute (per due shard, the sort key queued through)', wcu: '1 a minute, for the deployment' },
    { pattern: 'Held run', pk: 'AUTOHELD#<automationId>#<shard>', sk: '<runId>', operation: 'Put when a run wakes while paused; Query + Delete at resume', wcu: '1 + 1 per held run (rare)' },
  ],
};
