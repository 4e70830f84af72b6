import type { Clock } from '../ports';
import type { Db } from '../store/client';
import type { KeyMode } from '../security/api-keys';
import type { Project } from './project';

/**
 * How long a warm instance trusts what it read of an API key and its project. A revoked key, a
 * rotated one or a disabled project stops within this bound on every instance (at once on the
 * instance that made the change); docs/decisions.md "Handler CPU".
 */
export const PROJECT_CACHE_SECONDS = 5;

/** Enough for every project a busy instance serves; the oldest entry goes first beyond it. */
const MAX_ENTRIES = 1_000;

/** Values read from the table, each trusted for `ttlMs` after its read; misses are not kept. */
class ShortLivedCache<V> {
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

const keys = new ShortLivedCache<{ project_id: string; mode: KeyMode }>(PROJECT_CACHE_SECONDS * 1000);
const projects = new ShortLivedCache<Project>(PROJECT_CACHE_SECONDS * 1000);

/** An API key's lookup through this instance's cache; `load` reads the table. */
export function cachedApiKey(db: Db, clock: Clock, hash: string, load: () => Promise<{ project_id: string; mode: KeyMode } | undefined>) {
  return keys.get(`${db.tableName}|${hash}`, clock.now().getTime(), load);
}

/** A project through this instance's cache; `load` reads the table. */
export function cachedProject(db: Db, clock: Clock, projectId: string, load: () => Promise<Project | undefined>) {
  return projects.get(`${db.tableName}|${projectId}`, clock.now().getTime(), load);
}

/** Forgets what this instance read of a project and its keys: called by every write that changes them. */
export function forgetProject(projectId: string): void {
  keys.forget((key) => key.project_id === projectId);
  projects.forget((project) => project.id === projectId);
}
