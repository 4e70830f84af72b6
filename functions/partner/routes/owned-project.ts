import type { PartnerCaller } from '../../../shared/auth/authenticate';
import { services } from '../../../shared/container';
import { requireOwnedProject } from '../../../shared/partner/partner-projects';
import type { Project } from '../../../shared/projects/project';

/** The project named in the path, if it is the caller's organization's (404 NOT_FOUND otherwise, never 403). */
export function ownedProject(request: { readonly caller: PartnerCaller; readonly params: Readonly<Record<string, string>> }): Promise<Project> {
  return requireOwnedProject(services(), request.caller, request.params.projectId ?? '');
}

/** The 404 of every route under `/v1/partner/projects/{projectId}`. */
export const PROJECT_NOT_FOUND = 'No project with this id in the key\'s organization (NOT_FOUND)';
