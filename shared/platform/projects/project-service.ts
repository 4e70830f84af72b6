import { randomBytes, randomUUID } from 'node:crypto';
import { generateKey, type KeyMode } from '../security/api-keys';
import { conflict, notFound } from '../core/errors';
import type { Clock } from '../core/ports';
import type { Db } from '../store/client';
import type { Project } from './project';
import { slugify } from './project';
import { createProjectWithKeys, getProject, replaceProjectKey } from './project-repository';

export interface NewProject {
  organizationId: string;
  name: string;
  timezone?: string;
  country?: string;
  inboundWebhookEnvironments?: Record<string, string>;
}

/** A created project with its two keys in plaintext: the only time they are ever shown. */
export interface CreatedProject {
  project: Project;
  liveKey: string;
  testKey: string;
}

/** A new project record with one live and one independent test key (stored only as hashes); nothing is written. */
export function newProjectWithKeys(input: NewProject, now: Date): CreatedProject {
  const live = generateKey('live');
  const test = generateKey('test');
  const project: Project = {
    id: randomUUID(),
    organization_id: input.organizationId,
    name: input.name,
    slug: slugify(input.name, randomBytes(3).toString('hex')),
    timezone: input.timezone,
    country: input.country,
    inbound_webhook_environments: input.inboundWebhookEnvironments ?? {},
    disabled_at: null,
    created_at: now.toISOString(),
    live_key_hash: live.hash,
    test_key_hash: test.hash,
  };
  return { project, liveKey: live.plaintext, testKey: test.plaintext };
}

/** Creates a project with one live and one independent test key, stored only as hashes. */
export async function createProject(db: Db, clock: Clock, input: NewProject): Promise<CreatedProject> {
  const created = newProjectWithKeys(input, clock.now());
  await createProjectWithKeys(db, created.project);
  return created;
}

/** Regenerates the live or test key of a project; the previous key of that mode stops working at once. */
export async function rotateProjectKey(db: Db, projectId: string, mode: KeyMode): Promise<string> {
  const project = await getProject(db, projectId);
  if (!project) throw notFound('Project not found');
  const fresh = generateKey(mode);
  const oldHash = mode === 'live' ? project.live_key_hash : project.test_key_hash;
  if (!(await replaceProjectKey(db, projectId, mode, oldHash, fresh.hash))) throw conflict('The key was rotated concurrently; try again', 'KEY_ROTATION_CONFLICT');
  return fresh.plaintext;
}
