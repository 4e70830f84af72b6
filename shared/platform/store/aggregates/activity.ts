import { defineAggregate, defineLifecycle, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { allShards, shardOf } from './shards';

/**
 * Shards of every activity index partition. A partition takes about 1,000 writes a second and the
 * goal is at most 300: at 3,000 mails a second from one project, 16 shards take about 190 each.
 */
export const ACTIVITY_INDEX_SHARDS = 16;

/** Sort key shared by the activity indexes: newest first when read backwards. */
const activitySort = (createdAt: string, id: string) => `${createdAt}#${id}`;

/** Where a filtered activity list reads: the index, its shard partitions, and a key filter if any. */
export interface ActivityListPartition {
  index: string;
  pkName: string;
  skName: string;
  /** Every partition to read; their entries merge newest first. */
  pks: string[];
  /** A condition on an attribute the index projects (a FilterExpression, with its values). */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, string> };
}

const sharded = (index: string, prefix: string): ActivityListPartition => ({
  index,
  pkName: `${index}pk`,
  skName: `${index}sk`,
  pks: allShards(ACTIVITY_INDEX_SHARDS).map((s) => `${prefix}#${s}`),
});

/** Key of an activity record. */
export const activityKey = (activityId: string): ItemKey => ({ pk: `ACT#${activityId}`, sk: 'ACT' });

/** Key of an activity's body (compressed content), kept apart so status updates stay 1 WCU. */
export const activityBodyKey = (activityId: string): ItemKey => ({ pk: `ACT#${activityId}`, sk: 'BODY' });

/** Partition holding an activity record and its body. */
export const activityPartition = (activityId: string): string => `ACT#${activityId}`;

/** Sort keys within an activity partition. */
export const ACTIVITY_SK = 'ACT';

export const ACTIVITY_BODY_SK = 'BODY';

/** The statuses rare enough to get their own sparse index entry (gsi5); the rest are filtered in memory. */
export const RARE_STATUSES = ['bounced', 'complained', 'failed', 'suppressed', 'cancelled'] as const;

/**
 * Index attributes written with a new activity record: the project list, and its campaign or run.
 * The project list is sharded by recipient and carries `recipient_primary` (gsi3 projects it), so
 * the recipient filter reads one shard and filters on it: one index serves both, one entry per mail.
 */
export function activityIndexes(a: { project_id: string; id: string; created_at: string; recipient_primary: string; campaign_id?: string; automation_run_id?: string }) {
  const sort = activitySort(a.created_at, a.id);
  const attributes: Record<string, string> = {
    gsi3pk: `ACTS#${a.project_id}#${shardOf(a.recipient_primary.toLowerCase(), ACTIVITY_INDEX_SHARDS)}`,
    gsi3sk: sort,
  };
  const group = a.campaign_id ? `c:${a.campaign_id}` : a.automation_run_id ? `a:${a.automation_run_id}` : undefined;
  if (group) Object.assign(attributes, { gsi6pk: `ACTC#${a.project_id}#${group}#${shardOf(a.id, ACTIVITY_INDEX_SHARDS)}`, gsi6sk: sort });
  return attributes;
}

/** gsi5 attributes of an activity in one of the rare statuses (sharded by id: a bad list can bounce every mail). */
export const activityStatusIndex = (projectId: string, status: string, createdAt: string, id: string) => ({
  gsi5pk: `ACTST#${projectId}#${status}#${shardOf(id, ACTIVITY_INDEX_SHARDS)}`,
  gsi5sk: activitySort(createdAt, id),
});

/** Index partitions for listing activity by a filter. */
export const activityListPartition = {
  project: (projectId: string): ActivityListPartition => sharded('gsi3', `ACTS#${projectId}`),
  recipient: (projectId: string, email: string): ActivityListPartition => ({
    index: 'gsi3',
    pkName: 'gsi3pk',
    skName: 'gsi3sk',
    pks: [`ACTS#${projectId}#${shardOf(email.toLowerCase(), ACTIVITY_INDEX_SHARDS)}`],
    filter: { expression: '#recipient = :recipient', names: { '#recipient': 'recipient_primary' }, values: { ':recipient': email.toLowerCase() } },
  }),
  status: (projectId: string, status: string): ActivityListPartition => sharded('gsi5', `ACTST#${projectId}#${status}`),
  campaign: (projectId: string, campaignId: string): ActivityListPartition => sharded('gsi6', `ACTC#${projectId}#c:${campaignId}`),
  automationRun: (projectId: string, runId: string): ActivityListPartition => sharded('gsi6', `ACTC#${projectId}#a:${runId}`),
};

/** Key of an engagement event (open or click) of an activity, kept apart so opens never grow the record. */
export const engagementEventKey = (activityId: string, timestamp: string, discriminator: string): ItemKey => ({ pk: `ACT#${activityId}`, sk: `EV#${timestamp}#${discriminator}` });

/** Prefix of an activity's engagement events. */
export const ENGAGEMENT_SK_PREFIX = 'EV#';

/**
 * The send worker's moves of an activity out of the sendable states (activity-repository's
 * transitionFromSendable applies them); entering a rare status also sets its gsi5 attributes
 * (activityStatusIndex). Each `to` is one transition's, so the gateway finds the move by its target.
 */
export const activityLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'activity',
  stateField: 'current_status',
  transitions: {
    send: { from: ['queued', 'retrying'], to: 'sent', set: ['message_id', 'sent_at', 'updated_at'], increment: ['version'] },
    retry: { from: ['queued', 'retrying'], to: 'retrying', set: ['updated_at'], increment: ['version'] },
    suppress: { from: ['queued', 'retrying'], to: 'suppressed', set: ['suppression_reason', 'updated_at', 'gsi5pk', 'gsi5sk'], increment: ['version'] },
    fail: { from: ['queued', 'retrying'], to: 'failed', set: ['failure', 'updated_at', 'gsi5pk', 'gsi5sk'], increment: ['version'] },
    cancel: { from: ['queued', 'retrying'], to: 'cancelled', set: ['updated_at', 'gsi5pk', 'gsi5sk'], increment: ['version'] },
  },
});

/** An activity record (one mail), its body and its engagement events (opens, clicks), in one partition. */
export const activity = /* @__PURE__ */ defineAggregate({
  name: 'activity',
  keys: { activityKey, activityBodyKey, activityPartition, ACTIVITY_SK, ACTIVITY_BODY_SK, RARE_STATUSES, ACTIVITY_INDEX_SHARDS, activityIndexes, activityStatusIndex, activityListPartition, engagementEventKey, ENGAGEMENT_SK_PREFIX },
  indexes: ['gsi3', 'gsi5', 'gsi6'],
  lifecycle: activityLifecycle,
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const activityAccessPatterns: Record<string, readonly AccessPattern[]> = {
  activity: [
    { pattern: 'Activity record by id', pk: 'ACT#<activityId>', sk: 'ACT', operation: 'PutItem / UpdateItem', wcu: '1 put + 1 claim + 1 sent' },
    { pattern: 'Activity body (html, text, lists)', pk: 'ACT#<activityId>', sk: 'BODY', operation: 'conditional PutItem', wcu: 'ceil(gzip KB) at accept (batch mails: at the claim)' },
    { pattern: 'Activity with body (include=html)', pk: 'ACT#<activityId>', sk: '(all)', operation: 'Query', wcu: '0' },
    { pattern: 'Activities of a project (gsi3)', pk: 'gsi3pk ACTS#<p>#<shard of recipient>', sk: '<created>#<id>', operation: 'Query desc on all 16 shards, merged; BatchGet', wcu: '1 (index entry at put)' },
    { pattern: 'Activities to a recipient (gsi3)', pk: 'gsi3pk ACTS#<p>#<shard of recipient>', sk: '<created>#<id>', operation: 'Query desc on 1 shard, filter recipient_primary (projected)', wcu: '0 (same entry)' },
    { pattern: 'Activities in a rare status (gsi5)', pk: 'gsi5pk ACTST#<p>#<st>#<shard of id>', sk: '<created>#<id>', operation: 'sparse: bounced, complained, failed, suppressed, cancelled', wcu: '1 when entering one' },
    { pattern: 'Activities of a campaign / run (gsi6)', pk: 'gsi6pk ACTC#<p>#<c|a>:<id>#<shard of id>', sk: '<created>#<id>', operation: 'sparse', wcu: '1 at put when set' },
    { pattern: 'Engagement event (open, click)', pk: 'ACT#<activityId>', sk: 'EV#<time>#<hash>', operation: 'conditional PutItem', wcu: '1 per open or click' },
  ],
};
