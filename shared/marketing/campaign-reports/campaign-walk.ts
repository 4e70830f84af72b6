import type { Activity } from '../../mail-pipeline/activity/activity';
import { activitiesInOrder } from '../../mail-pipeline/activity/activity-repository';
import { readIndexPage, type IndexPartition } from '../campaigns/campaign-gateway';
import type { Db } from '../../platform/store/client';
import { activityListPartition, type ActivityListPartition } from '../../platform/store/keys';

/**
 * A position in a campaign's activity index (gsi6 `ACTC#<p>#c:<id>#<shard>`): the shard being read
 * and DynamoDB's key after the last entry taken. Shards are read one after the other, each oldest
 * first, so the order is stable and a saved position resumes exactly (the export's checkpoint).
 */
export interface WalkPosition {
  shard: number;
  start?: Record<string, unknown>;
}

export const WALK_START: WalkPosition = { shard: 0 };

/**
 * Reads up to `limit` activity records of a campaign from `from`, created at or before `until`
 * (entries added while an export runs are left out, so a replayed page reads the same entries).
 * Returns the records and the position after them; `next` is undefined at the end of the campaign.
 * Costs one keys-only Query page and one BatchGet per 100 records.
 */
export async function readCampaignPage(
  db: Db,
  projectId: string,
  campaignId: string,
  from: WalkPosition,
  limit: number,
  until?: string,
): Promise<{ records: Activity[]; next?: WalkPosition }> {
  const partition = activityListPartition.campaign(projectId, campaignId);
  let position: WalkPosition | undefined = from;
  const keys: string[] = [];
  while (position && keys.length < limit) {
    const out = await readIndexPage(db, shardOf(partition, position.shard), { start: position.start, limit: limit - keys.length, upTo: until ? `${until}#~` : undefined });
    keys.push(...out.items.map((item) => String(item.pk)));
    if (out.next) position = { shard: position.shard, start: out.next };
    else position = position.shard + 1 < partition.pks.length ? { shard: position.shard + 1 } : undefined;
  }
  return { records: await activitiesInOrder(db, keys), next: position };
}

/** What a bounded scan found: the kept records, and where the next scan starts (undefined at the end of the campaign). */
export interface ScanResult<T> {
  found: T[];
  next?: WalkPosition;
  /** Records read. */
  read: number;
}

/** Keys a scan step reads: one keys-only Query page and one BatchGet. */
const SCAN_STEP = 100;

/**
 * Reads a campaign's records from `from` in walk order, keeping what `keep` returns, until `want`
 * are kept or `maxRead` records are read, whichever comes first. `next` is the position right after
 * the last record looked at, so a scan that stops on a full page resumes with the next record and
 * one that runs out of budget resumes where it stopped (a page that filled on the campaign's last
 * record still names a position: the scan from it finds nothing). Costs at most `maxRead` records.
 */
export async function scanCampaign<T>(
  db: Db,
  projectId: string,
  campaignId: string,
  from: WalkPosition,
  limits: { want: number; maxRead: number },
  keep: (activity: Activity) => T | undefined,
): Promise<ScanResult<T>> {
  const partition = activityListPartition.campaign(projectId, campaignId);
  const found: T[] = [];
  let read = 0;
  let position: WalkPosition | undefined = from;
  while (position && read < limits.maxRead && found.length < limits.want) {
    const shard: number = position.shard;
    const out = await readIndexPage(db, shardOf(partition, shard), { start: position.start, limit: Math.min(SCAN_STEP, limits.maxRead - read) });
    const entries = out.items;
    const records = new Map((await activitiesInOrder(db, entries.map((e) => String(e.pk)))).map((a) => [`ACT#${a.id}`, a]));
    let stopped = false;
    for (const entry of entries) {
      read++;
      const record = records.get(String(entry.pk));
      const kept = record ? keep(record) : undefined;
      if (kept !== undefined) found.push(kept);
      if (found.length >= limits.want) {
        // The entry's own keys are the position right after it (a keys-only index projects only keys).
        position = { shard, start: { ...entry } };
        stopped = true;
        break;
      }
    }
    if (stopped) break;
    if (out.next) position = { shard, start: out.next };
    else position = shard + 1 < partition.pks.length ? { shard: shard + 1 } : undefined;
  }
  return { found, next: position, read };
}

/** One shard of the campaign's activity index. */
function shardOf(partition: ActivityListPartition, shard: number): IndexPartition {
  return { index: partition.index, pkName: partition.pkName, skName: partition.skName, pk: partition.pks[shard] };
}
