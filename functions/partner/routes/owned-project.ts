import type { PartnerCaller } from '../../../shared/platform/auth/authenticate';
import { services } from '../../../composition/services';
import { requireOwnedProject } from '../../../shared/tenancy/partner/partner-projects';
import type { Project } from '../../../shared/platform/projects/project';

/** The project named in the path, if it is the caller's organization's (404 NOT_FOUND otherwise, never 403). */
export function ownedProject(request: { readonly caller: PartnerCaller; readonly params: Readonly<Record<string, string>> }): Promise<Project> {
  return requireOwnedProject(services(), request.caller, request.params.projectId ?? '');
}

/** The 404 of every route under `/v1/partner/projects/{projectId}`. */
export const PROJECT_NOT_FOUND = 'No project with this id in the key\'s organization (NOT_FOUND)';

/**
 * The 400 of a route that reads no body: any keyed request's body is parsed before its route runs,
 * so one that is not JSON, nests too deep or holds a NUL is refused all the same.
 */
export const UNREAD_BODY_REFUSED = 'A body was sent (this route reads none) and is not JSON, nests too deep, or holds a NUL or reserved key (INVALID_INPUT)';
