import { unauthorized } from '../core/errors';
import { findPartnerKey } from '../organizations/organization-repository';
import type { Project } from '../projects/project';
import { findApiKeyCached, getProjectCached } from '../projects/project-repository';
import type { Clock } from '../core/ports';
import type { Db } from '../store/client';
import { AUTH_MESSAGES, parseAuthorization, type KeyMode } from '../security/api-keys';

/** Who is calling a project route: the project taken from the key, and the mode taken from its prefix. */
export interface ProjectCaller {
  readonly kind: 'project';
  readonly mode: KeyMode;
  readonly project: Project;
}

/** Who is calling a partner route. */
export interface PartnerCaller {
  readonly kind: 'partner';
  readonly organizationId: string;
  /** Which of the organization's partner keys was used. */
  readonly keyId?: string;
}

/**
 * Resolves a project key to its project; throws the 401s of part 5. Both reads are trusted for
 * PROJECT_CACHE_SECONDS on a warm instance (a revoked key or a disabled project stops within it).
 */
export async function authenticateProject(db: Db, clock: Clock, authorization: string | undefined): Promise<ProjectCaller> {
  const parsed = parseAuthorization(authorization, 'project');
  if (parsed.kind.kind !== 'project') throw unauthorized(AUTH_MESSAGES.unknown);
  return projectCallerOfHash(db, clock, parsed.hash, parsed.kind.mode);
}

/** The project of a stored key hash presented in `mode`; throws part 5's "Invalid API key" when there is none. */
export async function projectCallerOfHash(db: Db, clock: Clock, hash: string, mode: KeyMode): Promise<ProjectCaller> {
  const found = await findApiKeyCached(db, clock, hash);
  // The prefix must agree with the stored mode: a live secret presented as sk_test_ is not a test key.
  if (!found || found.mode !== mode) throw unauthorized(AUTH_MESSAGES.unknown);
  const project = await getProjectCached(db, clock, found.project_id);
  if (!project) throw unauthorized(AUTH_MESSAGES.unknown);
  return { kind: 'project', mode: found.mode, project };
}

/** Resolves a partner key to its organization; throws 401 otherwise. */
export async function authenticatePartner(db: Db, authorization: string | undefined): Promise<PartnerCaller> {
  return partnerCallerOfHash(db, parseAuthorization(authorization, 'partner').hash);
}

/** The organization of a stored partner key hash; throws 401 when there is none. */
export async function partnerCallerOfHash(db: Db, hash: string): Promise<PartnerCaller> {
  const found = await findPartnerKey(db, hash);
  if (!found) throw unauthorized(AUTH_MESSAGES.unknown);
  return { kind: 'partner', organizationId: found.organization_id, keyId: found.key_id };
}
