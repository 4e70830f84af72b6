/** Shard arithmetic shared by the aggregates whose partitions are spread over several keys. */

/** A stable shard number in [0, shards) for `text` (FNV-1a): the same text always lands on the same shard. */
export function shardOf(text: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** Every shard number below `shards`. */
export const allShards = (shards: number): number[] => Array.from({ length: shards }, (_, i) => i);

/** An index partition family, one partition per shard, read side by side and merged. */
export interface ShardedListPartitions {
  readonly index: string;
  readonly pkName: string;
  readonly skName: string;
  readonly pks: readonly string[];
}

/** Partitions of every per-lead key of a project (lead items, list and search indexes, events indexes). */
export const LEAD_SHARDS = 16;

/** Shards of the counters written by transactions (so that concurrent transactions rarely touch the same item). */
export const COUNTER_SHARDS = 16;

/** The shard of a lowercased email: a stable hash, so that a lead always lives in the same partition. */
export function leadShard(emailLc: string): number {
  // FNV-1a, 32 bits: cheap, stable across runtimes, spreads addresses evenly.
  return shardOf(emailLc, LEAD_SHARDS);
}

/** Every shard number, for reads that fan out over them. */
export const leadShards = (): number[] => allShards(LEAD_SHARDS);
