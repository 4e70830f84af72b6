import { notFound } from '../core/errors';
import type { Clock } from '../core/ports';
import { createProject } from '../projects/project-service';
import type { Db } from '../store/client';
import { getOrganization, listPartnerKeys, updateOrganization, type Organization } from './organization-repository';
import { createOrganization, issuePartnerKey, revokePartnerKey, setMaxProjects } from './organization-service';

/**
 * The operator commands behind `npm run admin` (bin/admin.ts parses the arguments). Each runs the
 * same service functions as the local seed against whatever table it is given, and returns a plain
 * result that bin/admin-render.ts turns into JSON or short text. Partner keys are shown only when issued.
 */
export type AdminCommand =
  | { readonly kind: 'org create'; readonly name: string; readonly maxProjects: number | null; readonly rootProject?: string }
  | { readonly kind: 'org show'; readonly org: string }
  | { readonly kind: 'key issue'; readonly org: string }
  | { readonly kind: 'key list'; readonly org: string }
  | { readonly kind: 'key revoke'; readonly org: string; readonly keyId: string }
  | { readonly kind: 'quota set'; readonly org: string; readonly max: number | null };

/** An organization as the operator sees it (explicit fields: nothing else of the item leaks). */
export interface OrganizationView {
  id: string;
  name: string;
  max_projects: number | null;
  active_projects: number;
  root_project_id: string | null;
  created_at: string;
}

/** A partner key as listed: its id and date, never its hash. */
export interface PartnerKeyView {
  key_id: string;
  created_at: string;
}

export type AdminResult =
  | {
      kind: 'org create';
      organization: OrganizationView;
      partner_key: { key_id: string; key: string };
      root_project: { id: string; name: string; slug: string; live_key: string; test_key: string } | null;
    }
  | { kind: 'org show'; organization: OrganizationView; partner_keys: PartnerKeyView[] }
  | { kind: 'key issue'; organization_id: string; key_id: string; key: string }
  | { kind: 'key list'; organization_id: string; partner_keys: PartnerKeyView[] }
  | { kind: 'key revoke'; organization_id: string; key_id: string; revoked: true }
  | { kind: 'quota set'; organization_id: string; max_projects: number | null; active_projects: number };

/**
 * `org create` got part of the way: the organization exists but a later step failed. The message
 * says what is left to do; `cause` is the underlying failure.
 */
export class PartialCreateError extends Error {
  constructor(
    readonly organizationId: string,
    readonly step: string,
    readonly remedy: string,
    options: { cause: unknown },
  ) {
    super(`Organization ${organizationId} was created, but ${step} failed`, options);
    this.name = 'PartialCreateError';
  }
}

/** Runs one command against the table. Throws AppError (404) for an unknown organization or key. */
export async function runAdminCommand(db: Db, clock: Clock, command: AdminCommand): Promise<AdminResult> {
  switch (command.kind) {
    case 'org create':
      return createOrganizationWithKey(db, clock, command);
    case 'org show': {
      const organization = await requireOrganization(db, command.org);
      return { kind: 'org show', organization: organizationView(organization), partner_keys: await partnerKeyViews(db, command.org) };
    }
    case 'key issue': {
      const { keyId, key } = await issuePartnerKey(db, clock, command.org);
      return { kind: 'key issue', organization_id: command.org, key_id: keyId, key };
    }
    case 'key list':
      await requireOrganization(db, command.org);
      return { kind: 'key list', organization_id: command.org, partner_keys: await partnerKeyViews(db, command.org) };
    case 'key revoke':
      await requireOrganization(db, command.org);
      await revokePartnerKey(db, command.org, command.keyId);
      return { kind: 'key revoke', organization_id: command.org, key_id: command.keyId, revoked: true };
    case 'quota set': {
      await setMaxProjects(db, command.org, command.max);
      const organization = await requireOrganization(db, command.org);
      return { kind: 'quota set', organization_id: command.org, max_projects: organization.max_projects, active_projects: organization.active_projects ?? 0 };
    }
  }
}

/** An organization, its first partner key and, optionally, its root project (outside the quota). */
async function createOrganizationWithKey(db: Db, clock: Clock, command: Extract<AdminCommand, { kind: 'org create' }>): Promise<AdminResult> {
  const organization = await createOrganization(db, clock, { name: command.name, maxProjects: command.maxProjects });
  const id = organization.id;
  let partnerKey: { keyId: string; key: string };
  try {
    partnerKey = await issuePartnerKey(db, clock, id);
  } catch (error) {
    throw new PartialCreateError(id, 'issuing its partner key', `Issue one with: npm run admin -- key issue --org ${id}`, { cause: error });
  }
  let rootProject: Extract<AdminResult, { kind: 'org create' }>['root_project'] = null;
  if (command.rootProject !== undefined) {
    try {
      // Like the local seed: createProject does not touch the organization's active-project count.
      const { project, liveKey, testKey } = await createProject(db, clock, { organizationId: id, name: command.rootProject });
      await updateOrganization(db, id, { root_project_id: project.id });
      organization.root_project_id = project.id;
      rootProject = { id: project.id, name: project.name, slug: project.slug, live_key: liveKey, test_key: testKey };
    } catch (error) {
      const remedy = `Its partner key works and is shown only now: ${partnerKey.key} (${partnerKey.keyId}). The organization has no root project.`;
      throw new PartialCreateError(id, 'creating its root project', remedy, { cause: error });
    }
  }
  return { kind: 'org create', organization: organizationView(organization), partner_key: { key_id: partnerKey.keyId, key: partnerKey.key }, root_project: rootProject };
}

async function requireOrganization(db: Db, organizationId: string): Promise<Organization> {
  const organization = await getOrganization(db, organizationId);
  if (!organization) throw notFound(`Organization ${organizationId} not found`);
  return organization;
}

async function partnerKeyViews(db: Db, organizationId: string): Promise<PartnerKeyView[]> {
  const keys = await listPartnerKeys(db, organizationId);
  return keys.map((k) => ({ key_id: k.key_id, created_at: k.created_at })).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

function organizationView(o: Organization): OrganizationView {
  return {
    id: o.id,
    name: o.name,
    max_projects: o.max_projects ?? null,
    active_projects: o.active_projects ?? 0,
    root_project_id: o.root_project_id ?? null,
    created_at: o.created_at,
  };
}
