import type { Needs } from '../core/dependencies';
import { logger } from '../core/logger';
import type { Project } from './project';
import { getProject } from './project-repository';

/** The SES tenant name of a project: derived from its id (SES takes up to 64 of `[A-Za-z0-9_-]`), so a retry finds the same one. */
export const tenantNameOf = (projectId: string): string => `mr-${projectId}`;

/**
 * Associates a new identity of a project with the project's SES tenant, when it has one: a send
 * through the tenant from an identity it does not hold is refused by SES. Called right after the
 * identity is created; a failure fails the registration, whose retry associates again (idempotent).
 */
export async function associateWithProjectTenant(deps: Needs<'db' | 'tenants'>, projectId: string, identity: string): Promise<void> {
  const tenant = (await getProject(deps.db, projectId, true))?.ses_tenant;
  if (!tenant) return;
  await deps.tenants.associateIdentity({ ...tenant, sendingStatus: 'ENABLED' }, identity);
}

/** The project's tenant as health shows it: its name and SES's sending status (`unknown` when SES could not be asked). */
export async function tenantStatus(deps: Needs<'tenants'>, project: Pick<Project, 'id' | 'ses_tenant'>): Promise<{ name: string; sending_status: string } | null> {
  if (!project.ses_tenant) return null;
  try {
    const tenant = await deps.tenants.getTenant(project.ses_tenant.name);
    return { name: project.ses_tenant.name, sending_status: tenant?.sendingStatus ?? 'unknown' };
  } catch (error) {
    logger.warn('The SES tenant could not be read', { projectId: project.id, error: error as Error });
    return { name: project.ses_tenant.name, sending_status: 'unknown' };
  }
}
