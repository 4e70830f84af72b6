import { defineAggregate, defineLifecycle, days, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { allShards } from './shards';

/** Shards of a campaign's counters: a 3,000-mail-a-second campaign writes each about 40 times a second. */
export const CAMPAIGN_COUNTER_SHARDS = 8;
/** Key of one shard of a campaign's counters. */
export const campaignCounterKey = (campaignId: string, shard: number): ItemKey => ({ pk: `CAMPSTAT#${campaignId}#${shard}`, sk: 'COUNTS' });

/** Key of a campaign's item (part 2, Campaign). */
export const campaignKey = (campaignId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: 'CAMPAIGN' });

/** Object key of a campaign's `recipientIds` (deduplicated lead ids, JSON) in the payload bucket. */
export const campaignIdsObjectKey = (projectId: string, campaignId: string): string => `campaigns/${projectId}/${campaignId}/ids.json`;

/** gsi1 attributes of a campaign: its project's campaigns, newest first (list, duplicate windows). */
export const campaignListIndex = (projectId: string, createdAt: string, campaignId: string) => ({ gsi1pk: `CAMPAIGNS#${projectId}`, gsi1sk: `${createdAt}#${campaignId}` });

/** The gsi1 partition of a project's campaigns. */
export const campaignListPartition = (projectId: string) => ({ index: 'gsi1', pkName: 'gsi1pk', skName: 'gsi1sk', pk: `CAMPAIGNS#${projectId}` });

/** Key of a campaign's engine cursor (its position in the frozen audience), apart from the campaign so reads of the campaign stay small. */
export const campaignCursorKey = (campaignId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: 'CURSOR' });

/** Key of a send job of a paused campaign, held until the campaign resumes. */
export const campaignHeldJobKey = (campaignId: string, jobId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: `HELD#${jobId}` });

/** Prefix of a campaign's held jobs. */
export const CAMPAIGN_HELD_SK_PREFIX = 'HELD#';

/** Keys of every shard of a campaign's counters (BatchGet and sum). */
export const campaignCounterKeys = (campaignId: string): ItemKey[] => allShards(CAMPAIGN_COUNTER_SHARDS).map((s) => campaignCounterKey(campaignId, s));

/** Key of the deployment-wide campaign send rate's tokens taken in one second (epoch seconds). */
export const campaignRateKey = (epochSecond: number): ItemKey => ({ pk: 'RATE#campaigns', sk: `RATE#${epochSecond}` });

/** Key of an outcome export of a campaign (its state and checkpoint; the CSV itself is in the payload bucket). */
export const campaignExportKey = (campaignId: string, exportId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: `EXPORT#${exportId}` });

/** The pointer to a campaign's latest export: at most one export of a campaign runs at a time. */
export const campaignRunningExportKey = (campaignId: string): ItemKey => ({ pk: `CAMPAIGN#${campaignId}`, sk: 'EXPORT_RUNNING' });

/** Object key of a campaign export's CSV in the payload bucket. */
export const campaignExportObjectKey = (projectId: string, campaignId: string, exportId: string): string => `exports/${projectId}/${campaignId}/${exportId}.csv`;

/**
 * The moves of a campaign's status: every one but the engine's step (recordStep: its status follows
 * the step, fenced by the step number). The API's moves start from the state it read (the gateway
 * narrows `from` to it), so a move that lost a race to the engine is tried again from the new state.
 */
export const campaignLifecycle = /* @__PURE__ */ defineLifecycle({
  name: 'campaign',
  transitions: {
    /** The audience is frozen and counted. */
    prepare: { from: ['initializing'], to: 'pending', set: ['total_recipients', 'total_batches', 'current_batch', 'updated_at'] },
    failInitializing: { from: ['initializing'], to: 'failed', set: ['updated_at'] },
    rateLimit: { from: ['processing', 'rate_limited'], to: 'rate_limited', set: ['throttled_at', 'updated_at'] },
    /** The caller's pause or the reputation guard's (`pause` says which); also a failed resume's way back. */
    pause: { from: ['pending', 'processing', 'rate_limited'], to: 'paused', set: ['pause', 'updated_at'] },
    /** Resume of a campaign that had started sending. */
    resume: { from: ['paused'], to: 'processing', set: ['updated_at'], remove: ['pause'] },
    /** Resume of a campaign paused before it started. */
    resumeUnstarted: { from: ['paused'], to: 'pending', set: ['updated_at'], remove: ['pause'] },
    /** The caller's soft cutoff, from any state but an end. */
    cancel: { from: ['initializing', 'pending', 'processing', 'rate_limited', 'paused'], to: 'cancelled', set: ['updated_at'] },
    fail: { from: ['pending', 'processing', 'rate_limited'], to: 'failed', set: ['failure_reason', 'updated_at'] },
    complete: { from: ['pending', 'processing', 'rate_limited'], to: 'completed', set: ['completed_at', 'updated_at', 'emails_sent', 'emails_failed', 'step'] },
  },
});

/**
 * A campaign (part 2, Campaign) and what lives in its partition: its engine cursor, the jobs held
 * while it is paused, its outcome exports; its sharded counters; the deployment-wide send rate.
 */
export const campaign = /* @__PURE__ */ defineAggregate({
  name: 'campaign',
  keys: { campaignKey, campaignIdsObjectKey, campaignListIndex, campaignListPartition, campaignCursorKey, campaignHeldJobKey, CAMPAIGN_HELD_SK_PREFIX, CAMPAIGN_COUNTER_SHARDS, campaignCounterKey, campaignCounterKeys, campaignRateKey, campaignExportKey, campaignRunningExportKey, campaignExportObjectKey },
  indexes: ['gsi1'],
  // pacing.ts's send-rate seconds and the campaign reports' EXPORT_RETENTION_DAYS today.
  ttl: [
    { attribute: 'ttl', items: 'send rate seconds', seconds: 3600 },
    { attribute: 'ttl', items: 'outcome exports', seconds: /* @__PURE__ */ days(7) },
  ],
  lifecycle: campaignLifecycle,
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const campaignAccessPatterns: Record<string, readonly AccessPattern[]> = {
  campaign: [
    { pattern: 'Campaign', pk: 'CAMPAIGN#<campaignId>', sk: 'CAMPAIGN', operation: 'Put (in the creation transaction: 2 + 1 gsi1), GetItem, conditional UpdateItem (engine steps, state moves)', wcu: '1 + 1 (gsi1 entry) per write; once per engine step, not per mail' },
    { pattern: 'Campaigns of a project (gsi1)', pk: 'gsi1pk CAMPAIGNS#<p>', sk: 'gsi1sk <created>#<id>', operation: 'Query desc (list, duplicate windows: a range over the last 24 h)', wcu: "(in the campaign's writes)" },
    { pattern: 'Campaign recipientIds', pk: '(blob store, not the table)', sk: 'campaigns/<p>/<c>/ids.json', operation: 'S3 Put at creation, Get by the engine', wcu: '0' },
    { pattern: 'Campaign engine cursor', pk: 'CAMPAIGN#<campaignId>', sk: 'CURSOR', operation: 'conditional Put per engine step (after its mail is queued)', wcu: '1 per step' },
    { pattern: 'Campaign jobs held while paused', pk: 'CAMPAIGN#<campaignId>', sk: 'HELD#<jobId>', operation: "Put when a paused campaign's job arrives, Query + Delete at resume", wcu: '1 per job of up to 50 mails (rare)' },
    { pattern: 'Campaign counters', pk: 'CAMPSTAT#<campaignId>#<shard>', sk: 'COUNTS', operation: 'ADD once per worker batch, random shard; Query-free GetItem of all 8', wcu: '1 per batch of mails or events' },
    { pattern: 'Campaign send rate (deployment-wide)', pk: 'RATE#campaigns', sk: 'RATE#<second>', operation: 'conditional ADD per engine step (tokens taken in that second)', wcu: '1 per step (TTL 1 h)' },
    { pattern: 'Campaign outcome export (CSV job)', pk: 'CAMPAIGN#<campaignId>', sk: 'EXPORT#<exportId>', operation: 'Put, GetItem, conditional UpdateItem per part (claim, checkpoint)', wcu: '1 to create, 2 per part of about 8 MB (60,000 rows), 1 to finish (TTL 7 d)' },
  ],
};
