import { defineAggregate, days, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { leadShard } from './shards';

/** Partition of the leads of one shard of a project. */
export const leadPartition = (projectId: string, shard: number): string => `LEADS#${projectId}#${shard}`;
/** Prefix of lead sort keys; the rest is the lowercased email (Query begins_with for an email prefix search). */
export const LEAD_SK_PREFIX = 'LEAD#';
/** Prefix of a project's lead counter shards. */
export const LEAD_COUNT_SK_PREFIX = 'LEADCOUNT#';

/** Key of a lead: the lowercased email decides both partition and sort key, so an address has one item per project. */
export const leadKey = (projectId: string, emailLc: string): ItemKey => ({ pk: leadPartition(projectId, leadShard(emailLc)), sk: `${LEAD_SK_PREFIX}${emailLc}` });

/** Key of the lookup from a lead's id to its email. */
export const leadIdKey = (projectId: string, leadId: string): ItemKey => ({ pk: `LEADID#${projectId}#${leadId}`, sk: 'LEADID' });

/** Index attributes of a lead: the newest-first list (gsi3) and, when it has a name, the name search (gsi4). */
export function leadIndexes(projectId: string, l: { id: string; email: string; created_at: string; name_lc?: string }) {
  const shard = leadShard(l.email);
  const attributes: Record<string, string> = { gsi3pk: `LEADT#${projectId}#${shard}`, gsi3sk: `${l.created_at}#${l.id}` };
  if (l.name_lc) Object.assign(attributes, { gsi4pk: `LEADN#${projectId}#${shard}`, gsi4sk: `${l.name_lc}#${l.email}` });
  return attributes;
}

/** Index partitions of a project's leads, per shard. */
export const leadListPartition = {
  newest: (projectId: string, shard: number) => ({ index: 'gsi3', pkName: 'gsi3pk', skName: 'gsi3sk', pk: `LEADT#${projectId}#${shard}` }),
  name: (projectId: string, shard: number) => ({ index: 'gsi4', pkName: 'gsi4pk', skName: 'gsi4sk', pk: `LEADN#${projectId}#${shard}` }),
};

/** Reads the email back from a lead's sort key. */
export const emailOfLeadSortKey = (sk: string): string => sk.slice(LEAD_SK_PREFIX.length);

/** Key of one shard of a project's lead counter. */
export const leadCounterKey = (projectId: string, shard: number): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `${LEAD_COUNT_SK_PREFIX}${shard}` });

/**
 * A lead of a project (by lowercased email; sharded over LEAD_SHARDS partitions), the lookup from its
 * id, its list and name indexes and the project's sharded lead counter. Written whole under its
 * `version` (versionedPut) or in transactions with the counter.
 */
export const lead = /* @__PURE__ */ defineAggregate({
  name: 'lead',
  keys: { leadPartition, LEAD_SK_PREFIX, leadKey, leadIdKey, leadIndexes, leadListPartition, emailOfLeadSortKey, LEAD_COUNT_SK_PREFIX, leadCounterKey },
  indexes: ['gsi3', 'gsi4'],
});

/** Prefix of a project's segments. */
export const SEGMENT_SK_PREFIX = 'SEG#';
/** Prefix of a project's segment member counters (all segments). */
export const SEGMENT_COUNT_SK_PREFIX = 'SEGCOUNT#';
/** Partition of one shard of the members a dynamic segment's evaluation `generation` found. */
export const dynamicMembersPartition = (projectId: string, segmentId: string, generation: number, shard: number): string => `DSEG#${projectId}#${segmentId}#${generation}#${shard}`;

/** Key of a segment inside its project's partition. */
export const segmentKey = (projectId: string, segmentId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `SEG#${segmentId}` });

/** Key of a project's segment count: the cap is a condition on it in the transaction that creates a segment. */
export const segmentTotalKey = (projectId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: 'SEGTOTAL' });

/** Key of one shard of a segment's member counter. */
export const segmentCounterKey = (projectId: string, segmentId: string, shard: number): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `${SEGMENT_COUNT_SK_PREFIX}${segmentId}#${shard}` });

/** Reads the segment id back from a member counter's sort key. */
export const segmentOfCounterSortKey = (sk: string): string => sk.slice(SEGMENT_COUNT_SK_PREFIX.length).split('#')[0];

/** Key of a lead's membership of a static segment, in the lead's own partition (its segment_ids are one Query). */
export const membershipKey = (projectId: string, leadId: string, segmentId: string): ItemKey => ({ pk: `LEADSEG#${projectId}#${leadId}`, sk: `SEG#${segmentId}` });

/** Partition of a lead's memberships. */
export const membershipPartition = (projectId: string, leadId: string): string => `LEADSEG#${projectId}#${leadId}`;

/** Reads the lead id back from a membership's partition. */
export const leadOfMembershipPartition = (pk: string): string => pk.slice(pk.lastIndexOf('#') + 1);

/** Reads the segment id back from a membership's sort key. */
export const segmentOfMembershipSortKey = (sk: string): string => sk.slice(SEGMENT_SK_PREFIX.length);

/** gsi2 attributes of a membership: the segment's members, newest lead first, sharded by the lead id (which an email change keeps). */
export const membershipIndex = (projectId: string, segmentId: string, l: { id: string; created_at: string }) => ({
  gsi2pk: `SEGM#${projectId}#${segmentId}#${leadShard(l.id)}`,
  gsi2sk: `${l.created_at}#${l.id}`,
});

/** gsi2 partition of one shard of a segment's members. */
export const segmentMembersPartition = (projectId: string, segmentId: string, shard: number) => ({ index: 'gsi2', pkName: 'gsi2pk', skName: 'gsi2sk', pk: `SEGM#${projectId}#${segmentId}#${shard}` });

/** Key of a member found by a dynamic segment's evaluation. */
export const dynamicMemberKey = (projectId: string, segmentId: string, generation: number, emailLc: string): ItemKey => ({
  pk: dynamicMembersPartition(projectId, segmentId, generation, leadShard(emailLc)),
  sk: emailLc,
});

/** A segment of a project, its count (the cap), its member counters, its static memberships and a dynamic segment's evaluated members. */
export const segment = /* @__PURE__ */ defineAggregate({
  name: 'segment',
  keys: { segmentKey, SEGMENT_SK_PREFIX, segmentTotalKey, SEGMENT_COUNT_SK_PREFIX, segmentCounterKey, segmentOfCounterSortKey, membershipKey, membershipPartition, leadOfMembershipPartition, segmentOfMembershipSortKey, membershipIndex, segmentMembersPartition, dynamicMembersPartition, dynamicMemberKey },
  indexes: ['gsi2'],
});

/** Partition of a lead's custom events (by lowercased email). */
export const customEventPartition = (projectId: string, emailLc: string): string => `EVT#${projectId}#${emailLc}`;

/** Reads the email back from a custom event's partition. */
export const emailOfCustomEventPartition = (projectId: string, pk: string): string => pk.slice(`EVT#${projectId}#`.length);

/** Key of a custom event, sorting by its timestamp. */
export const customEventKey = (projectId: string, emailLc: string, timestamp: string, id: string): ItemKey => ({ pk: customEventPartition(projectId, emailLc), sk: `${timestamp}#${id}` });

/** Index attributes of a custom event: by name (gsi5) and the project's list (gsi6), sharded by the email. */
export const customEventIndexes = (projectId: string, e: { email: string; event: string; timestamp: string; id: string }) => ({
  gsi5pk: `EVN#${projectId}#${e.event}#${leadShard(e.email)}`,
  gsi5sk: `${e.timestamp}#${e.id}`,
  gsi6pk: `EVS#${projectId}#${leadShard(e.email)}`,
  gsi6sk: `${e.timestamp}#${e.id}`,
});

/** Index partitions of a project's custom events, per shard. */
export const customEventListPartition = {
  byName: (projectId: string, event: string, shard: number) => ({ index: 'gsi5', pkName: 'gsi5pk', skName: 'gsi5sk', pk: `EVN#${projectId}#${event}#${shard}` }),
  project: (projectId: string, shard: number) => ({ index: 'gsi6', pkName: 'gsi6pk', skName: 'gsi6sk', pk: `EVS#${projectId}#${shard}` }),
};

/** A custom event of a lead (by email), listed by name and per project. */
export const customEvent = /* @__PURE__ */ defineAggregate({
  name: 'custom event',
  keys: { customEventPartition, emailOfCustomEventPartition, customEventKey, customEventIndexes, customEventListPartition },
  indexes: ['gsi5', 'gsi6'],
});

/** Days an import's row errors are kept for the report. */
const IMPORT_ERROR_RETENTION_DAYS = 30;
/** Partition of a lead import's row errors, sorted by row number. */
export const leadImportErrorPartition = (projectId: string, importId: string): string => `LEADIMPORTERR#${projectId}#${importId}`;

/** Key of a lead import (its state, counts and checkpoint) inside its project's partition. */
export const leadImportKey = (projectId: string, importId: string): ItemKey => ({ pk: `PROJECT#${projectId}`, sk: `LEADIMPORT#${importId}` });

/** Key of one failed row of an import: the row number zero-padded, so a Query reads them in file order and a replayed chunk rewrites the same item. */
export const leadImportErrorKey = (projectId: string, importId: string, row: number): ItemKey => ({ pk: leadImportErrorPartition(projectId, importId), sk: String(row).padStart(12, '0') });

/** Object key of an import's uploaded file in the payload bucket. */
export const leadImportObjectKey = (projectId: string, importId: string): string => `imports/${projectId}/${importId}`;

/**
 * A lead import: `awaiting_upload` -> `queued` (the file is there) -> `running` -> `done` or `failed`;
 * a running import checkpoints after every chunk. Its failed rows expire after 30 days.
 */
export const leadImport = /* @__PURE__ */ defineAggregate({
  name: 'lead import',
  keys: { leadImportKey, leadImportErrorPartition, leadImportErrorKey, leadImportObjectKey },
  ttl: [{ attribute: 'ttl', items: 'row errors', seconds: /* @__PURE__ */ days(IMPORT_ERROR_RETENTION_DAYS) }],
  transitions: {
    /** The uploaded file is there: the worker will read it. */
    enqueue: { from: ['awaiting_upload'], to: 'queued', set: ['total_bytes'] },
    start: { from: ['queued'], to: 'running', set: ['started_at'] },
    /** A chunk's checkpoint: the state stays `running`; the offset condition goes with it. */
    checkpoint: { from: ['running'], to: 'running', set: ['offset', 'rows', 'created', 'updated', 'failed', 'duplicates', 'warnings', 'checkpointed_at', 'columns'] },
    finish: { from: ['running'], to: 'done', set: ['finished_at'] },
    fail: { from: ['running'], to: 'failed', set: ['error', 'finished_at'] },
  },
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const audienceAccessPatterns: Record<string, readonly AccessPattern[]> = {
  lead: [
    { pattern: 'Lead of a project (by email)', pk: 'LEADS#<p>#<shard>', sk: 'LEAD#<email lc>', operation: 'TransactWrite (cond.), BatchGet, Query begins_with (email prefix search)', wcu: '2 (transactional put)' },
    { pattern: 'Lead id -> email', pk: 'LEADID#<p>#<id>', sk: 'LEADID', operation: "in the lead's creation transaction, BatchGet", wcu: '2 at creation, 0 after' },
    { pattern: 'Leads newest first (gsi3, keys only)', pk: 'gsi3pk LEADT#<p>#<shard>', sk: '<created>#<id>', operation: 'Query desc per shard, merged; BatchGet', wcu: '1 (index entry at creation)' },
    { pattern: 'Leads by name prefix (gsi4, keys only)', pk: 'gsi4pk LEADN#<p>#<shard>', sk: '<name lc>#<email>', operation: 'sparse: leads with a name; Query begins_with per shard', wcu: '1 while the lead has a name' },
    { pattern: 'Lead counter (project total)', pk: 'PROJECT#<projectId>', sk: 'LEADCOUNT#<n>', operation: 'ADD in the writing transaction; Query begins_with sums', wcu: '2 per transaction (not per lead)' },
  ],
  segment: [
    { pattern: 'Segment of a project', pk: 'PROJECT#<projectId>', sk: 'SEG#<segmentId>', operation: 'Put and Delete in a transaction with the count, GetItem, BatchGet, Query begins_with', wcu: '2 (transactional) to create or delete, 1 to rename' },
    { pattern: 'Segment count of a project (cap 500)', pk: 'PROJECT#<projectId>', sk: 'SEGTOTAL', operation: "ADD +1 if below the cap / -1, in the segment's transaction; set once from a count where absent", wcu: '2 per segment created or deleted' },
    { pattern: 'Segment member counter', pk: 'PROJECT#<projectId>', sk: 'SEGCOUNT#<seg>#<n>', operation: 'ADD in the writing transaction; Query begins_with sums', wcu: '2 per transaction and segment' },
    { pattern: 'Static membership (lead in segment)', pk: 'LEADSEG#<p>#<leadId>', sk: 'SEG#<segmentId>', operation: "conditional Put/Delete in a transaction; Query (a lead's segments)", wcu: '2 + 1 (gsi2 entry)' },
    { pattern: 'Members of a segment (gsi2)', pk: 'gsi2pk SEGM#<p>#<seg>#<shard>', sk: '<created>#<leadId>', operation: 'Query desc per shard, merged', wcu: "(in the membership's 3)" },
    { pattern: 'Dynamic segment members of one run', pk: 'DSEG#<p>#<seg>#<gen>#<shard>', sk: '<email lc>', operation: 'BatchWrite while evaluating; Query per shard', wcu: '1 per member per evaluation' },
  ],
  customEvent: [
    { pattern: 'Custom event', pk: 'EVT#<p>#<email lc>', sk: '<timestamp>#<id>', operation: 'BatchWrite; Query desc (by email, since/until)', wcu: '1 + 2 index entries = 3' },
    { pattern: 'Custom events by name (gsi5, keys)', pk: 'gsi5pk EVN#<p>#<event>#<shard>', sk: '<timestamp>#<id>', operation: 'Query per shard (list by name; "did X within a period")', wcu: "(in the event's 3)" },
    { pattern: 'Custom events of a project (gsi6)', pk: 'gsi6pk EVS#<p>#<shard>', sk: '<timestamp>#<id>', operation: 'Query desc per shard, merged', wcu: "(in the event's 3)" },
  ],
  leadImport: [
    { pattern: 'Lead import of a project', pk: 'PROJECT#<projectId>', sk: 'LEADIMPORT#<id>', operation: 'Put, GetItem, conditional UpdateItem (checkpoint)', wcu: '1 to create, 1 per chunk of 1,000 rows' },
    { pattern: 'Row errors of a lead import', pk: 'LEADIMPORTERR#<p>#<id>', sk: '<row, 12 digits>', operation: 'BatchWrite per chunk (the first 10,000), Query in order', wcu: '1 per failed row (TTL 30 d)' },
  ],
};
