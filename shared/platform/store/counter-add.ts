import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './aggregate-definition';
import type { Db } from './client';

/**
 * Adds increments (attribute -> n) to one counter item: one UpdateItem of ADDs (1 write unit for a
 * small item), nothing when every increment is 0. The sharded counters of campaigns and automations
 * are written through it.
 */
export async function addCounts(db: Db, key: ItemKey, counts: Readonly<Record<string, number>>): Promise<void> {
  const fields = Object.entries(counts).filter(([, n]) => n !== 0);
  if (fields.length === 0) return;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: key,
      UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(fields.map(([f], i) => [`#f${i}`, f])),
      ExpressionAttributeValues: Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])),
    }),
  );
}

/**
 * Increments gathered per owner (an automation, say) over a worker batch or a request, then written
 * with one ADD per owner: a hundred runs stepping cost one write unit, not a hundred. A crash before
 * the flush loses the batch's tallies (figures run a little low), never a step or an event.
 */
export class PendingCounts {
  private readonly pending = new Map<string, Map<string, number>>();

  /** `write` adds one owner's increments (the owner's gateway: its key and shard); `failed` hears of a write that failed. */
  constructor(
    private readonly write: (db: Db, owner: string, counts: Record<string, number>) => Promise<void>,
    private readonly failed: (owner: string, error: Error) => void,
  ) {}

  /** Adds `n` to one attribute of an owner's counters. */
  add(owner: string, attribute: string, n = 1): void {
    const counts = this.pending.get(owner) ?? new Map<string, number>();
    counts.set(attribute, (counts.get(attribute) ?? 0) + n);
    this.pending.set(owner, counts);
  }

  /** What was gathered for one owner (tests read it). */
  countsOf(owner: string): Record<string, number> {
    return Object.fromEntries(this.pending.get(owner) ?? []);
  }

  /** True when nothing was added since the last flush. */
  get empty(): boolean {
    return this.pending.size === 0;
  }

  /** Writes every owner's increments and empties the batch; never throws (what they count is recorded whatever happens here). */
  async flush(db: Db): Promise<void> {
    const entries = [...this.pending.entries()];
    this.pending.clear();
    await Promise.all(entries.map(([owner, counts]) => this.write(db, owner, Object.fromEntries(counts)).catch((error: unknown) => this.failed(owner, error as Error))));
  }
}
