import { ShortLivedCache } from '../cache/short-lived-cache';
import type { Clock } from '../core/ports';
import type { Db } from '../store/client';
import type { KeyMode } from '../security/api-keys';
import type { Project } from './project';

/**
 * How long a warm instance trusts what it read of an API key and its project. A revoked key, a
 * rotated one or a disabled project stops within this bound on every instance (at once on the
 * instance that made the change); docs/decisions.md "Handler CPU".
 */
export const PROJECT_CACHE_SECONDS = 5;

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
