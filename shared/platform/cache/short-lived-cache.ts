/** Enough for every project a busy instance serves; the oldest entry goes first beyond it. */
const MAX_ENTRIES = 1_000;

/** Values read from the table, each trusted for `ttlMs` after its read; misses are not kept. */
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(private readonly ttlMs: number) {}

  /** The value of `key`, read by `load` when absent or older than the bound. */
  async get(key: string, now: number, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    this.entries.delete(key);
    const value = await load();
    if (value === undefined) return undefined;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: now + this.ttlMs });
    return value;
  }

  /** Drops every entry whose value `matches`. */
  forget(matches: (value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }
}
