import { defineAggregate, type AccessPattern, type ItemKey } from '../aggregate-definition';
import { allShards } from './shards';

/** Prefix of a project's daily sender-domain counters. */
export const DOMAIN_STAT_SK_PREFIX = 'STAT#';
/**
 * Shards of a project's counters: each worker batch adds to one shard chosen at random, so at 3,000
 * mails a second (300 send batches and 300 event batches a second) a shard takes about 75 writes.
 */
export const DOMAIN_STAT_SHARDS = 8;
/** Partition of one shard of a project's daily sender-domain counters. */
export const domainStatPartition = (projectId: string, shard: number): string => `STAT#${projectId}#${shard}`;

/** Every counter partition of a project (readers sum over them). */
export const domainStatPartitions = (projectId: string): string[] => allShards(DOMAIN_STAT_SHARDS).map((s) => domainStatPartition(projectId, s));

/** Key of one shard of a daily counter of one sender domain (UTC day, YYYY-MM-DD). */
export const domainStatKey = (projectId: string, name: string, day: string, shard: number): ItemKey => ({
  pk: domainStatPartition(projectId, shard),
  sk: `${DOMAIN_STAT_SK_PREFIX}${name.toLowerCase()}#${day}`,
});

/** Sort-key bounds of one domain's counters between two days (inclusive). */
export const domainStatRange = (name: string, fromDay: string, toDay: string) => ({
  from: `${DOMAIN_STAT_SK_PREFIX}${name.toLowerCase()}#${fromDay}`,
  to: `${DOMAIN_STAT_SK_PREFIX}${name.toLowerCase()}#${toDay}`,
});

/** A project's daily send counters per sender domain. */
export const domainStats = /* @__PURE__ */ defineAggregate({
  name: 'domain send counters',
  keys: { DOMAIN_STAT_SK_PREFIX, DOMAIN_STAT_SHARDS, domainStatPartition, domainStatPartitions, domainStatKey, domainStatRange },
});

/**
 * Shards of a project's hourly counters (GET /v1/stats): like the domain counters, each worker batch
 * adds to one shard at random, in partitions of their own so that the two counters' writes never
 * share a partition (about 75 writes a second each at 3,000 mails a second from one project).
 */
export const PROJECT_STAT_SHARDS = 8;
/** Partition of one shard of a project's hourly counters. */
export const projectStatPartition = (projectId: string, shard: number): string => `PSTAT#${projectId}#${shard}`;

/** Every hourly-counter partition of a project (readers sum over them). */
export const projectStatPartitions = (projectId: string): string[] => allShards(PROJECT_STAT_SHARDS).map((s) => projectStatPartition(projectId, s));

/** Key of one shard of a project's counter for one UTC hour (`YYYY-MM-DDTHH`), live and test traffic apart. */
export const projectStatKey = (projectId: string, mode: 'live' | 'test', hour: string, shard: number): ItemKey => ({ pk: projectStatPartition(projectId, shard), sk: `${mode}#${hour}` });

/** Sort-key bounds of a mode's hourly counters between two hours (inclusive). */
export const projectStatRange = (mode: 'live' | 'test', fromHour: string, toHour: string) => ({ from: `${mode}#${fromHour}`, to: `${mode}#${toHour}` });

/** A project's hourly send and event counters. */
export const projectStats = /* @__PURE__ */ defineAggregate({
  name: 'project counters',
  keys: { PROJECT_STAT_SHARDS, projectStatPartition, projectStatPartitions, projectStatKey, projectStatRange },
});

/**
 * Shards of a project's monthly send counter. Each holds an even share of the quota, and a mail
 * takes a unit from one of them (another when that one is full): at 3,000 mails a second a shard
 * takes about 190 writes.
 */
export const MONTHLY_USAGE_SHARDS = 16;

/** Key of one shard of a project's send counter for one calendar month (UTC, `yyyy-mm`). */
export const monthlyUsageKey = (projectId: string, month: string, shard: number): ItemKey => ({ pk: `USAGE#${projectId}#${shard}`, sk: `USAGE#${month}` });

/** A project's monthly send usage, against its quota. */
export const monthlyUsage = /* @__PURE__ */ defineAggregate({
  name: 'monthly usage',
  keys: { MONTHLY_USAGE_SHARDS, monthlyUsageKey },
});

/** The access-pattern rows of this file's aggregates (docs/access-patterns.md): data for the document, kept out of the definitions so function bundles leave them out. */
export const countersAccessPatterns: Record<string, readonly AccessPattern[]> = {
  domainStats: [{ pattern: 'Domain send counters per day', pk: 'STAT#<p>#<random shard of 8>', sk: 'STAT#<domain>#<day>', operation: 'UpdateItem ADD, Query all shards', wcu: '1 per worker batch and domain' }],
  projectStats: [{ pattern: 'Project counters per hour (GET /v1/stats)', pk: 'PSTAT#<p>#<random shard of 8>', sk: '<live|test>#<YYYY-MM-DDTHH>', operation: 'UpdateItem ADD, Query a range on all shards', wcu: '1 per worker batch, hour and mode' }],
  monthlyUsage: [{ pattern: 'Monthly send usage of a project', pk: 'USAGE#<p>#<shard of 16>', sk: 'USAGE#<yyyy-mm>', operation: "conditional UpdateItem ADD on one shard's share", wcu: '1 per mail (more when shards fill), only when the project has a quota' }],
};
