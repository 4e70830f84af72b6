import { defineAggregate, defineLifecycle, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { allShards, shardOf, type ShardedListPartitions } from './shards';

/**
 * Shards of the deployment-wide due index (gsi5 is keys-only, so an entry costs 1 WCU): 3,000
 * scheduled sends a second write 6,000 entries (creation and claim), about 190 per shard.
 */
export const SCHEDULED_DUE_SHARDS = 32;
/**
 * Shards of a project's scheduled-send list (gsi6, keys only): 3,000 sends scheduled a second by one
 * project write about 190 entries a shard.
 */
export const SCHEDULED_LIST_SHARDS = 16;
/**
 * Shards of a project's pending scheduled sends (gsi4, keys only, sparse): every send writes its
 * entry when scheduled and deletes it when claimed, 6,000 writes a second at 3,000 sends a second,
 * about 190 a shard.
 */
export const SCHEDULED_PENDING_SHARDS = 32;

/** gsi5 attributes of a pending scheduled send due at `dueAt` (ISO UTC); removed when it is claimed or cancelled. */
export const scheduledDueIndex = (dueAt: string, id: string) => ({ gsi5pk: `SCHEDDUE#${shardOf(id, SCHEDULED_DUE_SHARDS)}`, gsi5sk: `${dueAt}#${id}` });

/** Sort key of both scheduled-send lists: the time, then the id (unique, and ordered by time). */
export const scheduledListSortKey = (scheduledFor: string, id: string): string => `${scheduledFor}#${id}`;

/** Key of a scheduled send (part 2); the item names its project, and reads check it. */
export const scheduledSendKey = (id: string): ItemKey => ({ pk: `SCHED#${id}`, sk: 'SCHED' });

/** gsi5 partitions of the scheduled-sends due index; the sweep reads them all. */
export const scheduledDuePartitions = (): string[] => allShards(SCHEDULED_DUE_SHARDS).map((s) => `SCHEDDUE#${s}`);

/** Reads a due-index sort key back into its time and id; undefined for anything this module did not write. */
export function parseScheduledDueSortKey(sortKey: string): { id: string; scheduledFor: string } | undefined {
  const cut = sortKey.indexOf('#');
  if (cut < 0) return undefined;
  const scheduledFor = sortKey.slice(0, cut);
  const id = sortKey.slice(cut + 1);
  if (Number.isNaN(Date.parse(scheduledFor)) || scheduledDueIndex(scheduledFor, id).gsi5sk !== sortKey) return undefined;
  return { id, scheduledFor };
}

/**
 * gsi6 attributes of a scheduled send: its project's list in its key's mode (a test key lists only
 * test sends), by `scheduled_for`. Rewritten only when the send is moved.
 */
export const scheduledListIndex = (s: { id: string; project_id: string; mode: string; scheduled_for: string }) => ({
  gsi6pk: `SCHEDS#${s.project_id}#${s.mode}#${shardOf(s.id, SCHEDULED_LIST_SHARDS)}`,
  gsi6sk: scheduledListSortKey(s.scheduled_for, s.id),
});

/** gsi4 attributes of a pending scheduled send (the list's `status=pending`); removed when it is claimed or cancelled. */
export const scheduledPendingIndex = (s: { id: string; project_id: string; mode: string; scheduled_for: string }) => ({
  gsi4pk: `SCHEDP#${s.project_id}#${s.mode}#${shardOf(s.id, SCHEDULED_PENDING_SHARDS)}`,
  gsi4sk: scheduledListSortKey(s.scheduled_for, s.id),
});

/** The partitions of a project's scheduled sends in one mode: all of them, or only the pending ones. */
export const scheduledListPartitions = {
  all: (projectId: string, mode: string): ShardedListPartitions => ({
    index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pks: allShards(SCHEDULED_LIST_SHARDS).map((s) => `SCHEDS#${projectId}#${mode}#${s}`),
  }),
  pending: (projectId: string, mode: string): ShardedListPartitions => ({
    index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pks: allShards(SCHEDULED_PENDING_SHARDS).map((s) => `SCHEDP#${projectId}#${mode}#${s}`),
  }),
};

/** A scheduled send's moves (scheduled-send-repository applies them); a claim and a cancel leave the due and pending indexes. */
export const scheduledSendLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'scheduled send',
  transitions: {
    /** The sweep's fire message claims it (also: `scheduled_for` is still the time the message names). */
    claim: { from: ['pending'], to: 'processing', set: ['claimed_by', 'updated_at'], remove: ['gsi5pk', 'gsi5sk', 'gsi4pk', 'gsi4sk'], increment: ['version'] },
    /** Also: the caller's project owns it. */
    cancel: { from: ['pending'], to: 'cancelled', set: ['updated_at'], remove: ['gsi5pk', 'gsi5sk', 'gsi4pk', 'gsi4sk'], increment: ['version'] },
    fail: { from: ['processing'], to: 'failed', set: ['error', 'updated_at'], increment: ['version'] },
  },
});

/** A scheduled send (part 2): pending until the sweep claims it or it is cancelled. The item names its project, and reads check it. */
export const scheduledSend = /* @__PURE__ */ defineAggregate({
  name: 'scheduled send',
  keys: { scheduledSendKey, SCHEDULED_DUE_SHARDS, scheduledDuePartitions, scheduledDueIndex, parseScheduledDueSortKey, SCHEDULED_LIST_SHARDS, SCHEDULED_PENDING_SHARDS, scheduledListSortKey, scheduledListIndex, scheduledPendingIndex, scheduledListPartitions },
  indexes: ['gsi4', 'gsi5', 'gsi6'],
  lifecycle: scheduledSendLifecycle,
});

/** Shards of a project's batch list: even 3,000 one-recipient batches a second write about 190 entries a shard. */
export const BATCH_LIST_SHARDS = 16;
/** Marks a batch's entries in the scheduled sends' due index, which the sweep shares with them. */
const BATCH_DUE_PREFIX = 'batch:';
/** The id under which a scheduled batch sits in the due index (and its fire messages name it). */
export const scheduledBatchDueId = (batchId: string): string => `${BATCH_DUE_PREFIX}${batchId}`;

/** Key of a batch send's header item (part 4.3); recipients and content are in the blob store. */
export const batchKey = (batchId: string): ItemKey => ({ pk: `BATCH#${batchId}`, sk: 'BATCH' });

/**
 * gsi6 attributes of a batch sent through the API (a campaign's waves are listed by their campaign):
 * its project's list in its key's mode, newest first. Written once: nothing a batch changes is in it.
 */
export const batchListIndex = (b: { id: string; project_id: string; mode: string; created_at: string }) => ({
  gsi6pk: `BATCHES#${b.project_id}#${b.mode}#${shardOf(b.id, BATCH_LIST_SHARDS)}`,
  gsi6sk: `${b.created_at}#${b.id}`,
});

/** The gsi6 partitions of a project's batches in one mode. */
export const batchListPartitions = (projectId: string, mode: string): ShardedListPartitions => ({
  index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pks: allShards(BATCH_LIST_SHARDS).map((s) => `BATCHES#${projectId}#${mode}#${s}`),
});

/** gsi5 attributes of a scheduled batch due at `dueAt` (ISO UTC); removed when it fires or is cancelled. */
export const scheduledBatchDueIndex = (dueAt: string, batchId: string) => scheduledDueIndex(dueAt, scheduledBatchDueId(batchId));

/** The batch id a due-index id names, or undefined when it names a scheduled send. */
export const batchOfDueId = (dueId: string): string | undefined => (dueId.startsWith(BATCH_DUE_PREFIX) ? dueId.slice(BATCH_DUE_PREFIX.length) : undefined);

/** A batch's moves (batch-repository applies them); a scheduled batch leaves the due index when it starts or is cancelled. */
export const batchLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'batch',
  transitions: {
    /** Also: `scheduled_for` is still the time the fire message names. */
    start: { from: ['scheduled'], to: 'sending', set: ['updated_at'], remove: ['gsi5pk', 'gsi5sk'] },
    /** Also: the caller's project owns it. */
    cancelScheduled: { from: ['scheduled'], to: 'cancelled', set: ['updated_at'], remove: ['gsi5pk', 'gsi5sk'] },
    /** Its fan-out could not be queued at accept time. */
    cancelAccepted: { from: ['sending'], to: 'cancelled', set: ['updated_at'] },
    /** The last chunk is done. */
    finish: { from: ['sending'], to: 'sent' },
  },
});

/** A batch send's header (part 4.3): status and counts; recipients and content are in the blob store. */
export const batch = /* @__PURE__ */ defineAggregate({
  name: 'batch',
  keys: { batchKey, BATCH_LIST_SHARDS, batchListIndex, batchListPartitions, scheduledBatchDueId, scheduledBatchDueIndex, batchOfDueId },
  indexes: ['gsi5', 'gsi6'],
  lifecycle: batchLifecycle,
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const schedulingAccessPatterns: Record<string, readonly AccessPattern[]> = {
  scheduledSend: [
    { pattern: 'Scheduled send by id', pk: 'SCHED#<id>', sk: 'SCHED', operation: 'Put, conditional Update', wcu: '1 to create, 1 per claim/patch/cancel' },
    { pattern: 'Scheduled sends due (gsi5, keys only)', pk: 'gsi5pk SCHEDDUE#<shard of id>', sk: 'gsi5sk <due>#<id>', operation: 'sparse: pending only; Query all 32 shards <= now + lookahead', wcu: '1 index entry at create, 1 at claim' },
    { pattern: 'Scheduled sends of a project (gsi6, keys only)', pk: 'gsi6pk SCHEDS#<p>#<mode>#<shard of id>', sk: '<scheduled_for>#<id>', operation: 'Query per shard (16), merged; BatchGet the items', wcu: '1 at create, 2 per move' },
    { pattern: 'Pending scheduled sends of a project (gsi4, keys only)', pk: 'gsi4pk SCHEDP#<p>#<mode>#<shard of id>', sk: '<scheduled_for>#<id>', operation: 'sparse: pending only; Query per shard (32), merged soonest first', wcu: '1 at create, 1 at claim or cancel, 2 per move' },
  ],
  batch: [
    { pattern: 'Batch send header (status, counts)', pk: 'BATCH#<batchId>', sk: 'BATCH', operation: 'Put, GetItem, conditional Update', wcu: '1 per batch, 1 per chunk of 500 fanned out, 1 per cancel/move' },
    { pattern: 'Scheduled batches due (gsi5, keys only)', pk: 'gsi5pk SCHEDDUE#<shard>', sk: 'gsi5sk <due>#batch:<id>', operation: "the scheduled sends' due index; sparse: scheduled batches only", wcu: '1 at create, 1 at fire' },
    { pattern: 'Batches of a project (gsi6, keys only)', pk: 'gsi6pk BATCHES#<p>#<mode>#<shard of id>', sk: '<created>#<id>', operation: 'sparse: API batches, not campaign waves; Query desc per shard (16), merged; BatchGet the headers', wcu: '1 at create' },
    { pattern: 'Batch recipients and content', pk: '(blob store, not the table)', sk: 'batches/<p>/<b>/...', operation: 'S3 Put at accept, Get per chunk', wcu: '0' },
  ],
};
