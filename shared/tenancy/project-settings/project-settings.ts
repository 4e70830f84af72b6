import type { ProjectCaller } from '../../platform/auth/authenticate';
import { forbidden, notFound } from '../../platform/core/errors';
import type { Db } from '../../platform/store/client';
import { presentProject } from '../partner/project-presenter';
import { getProject, updateProjectFieldsReturning } from '../../platform/projects/project-repository';

/**
 * A project's own settings, read and changed with its own key (`GET` and `PATCH /v1/project`): the
 * fields part 2 shows, never the key hashes, secrets or quota. Changes take the partner PATCH's
 * fields and rules (shared/tenancy/partner/project-request.ts).
 */

/** The refusal of a settings change made with a test key. */
export const TEST_KEY_CANNOT_CHANGE_SETTINGS =
  'Project settings cannot be changed with a test key: they are live configuration (the live webhook URLs, the time zone of live sends). Use the live key';

/** The refusal when the caller's project has gone. */
export const PROJECT_GONE = 'Project not found';

/** The calling project as it is now: read strongly consistent, so a change just answered is seen. */
export async function readProjectSettings(db: Db, caller: ProjectCaller) {
  const project = await getProject(db, caller.project.id, true);
  if (!project) throw notFound(PROJECT_GONE);
  return { success: true as const, project: presentProject(project) };
}

/**
 * Changes only the sent fields of the calling project (null clears one) and answers it as it now is.
 * A test key may read the settings but not change them: 403.
 */
export async function changeProjectSettings(db: Db, caller: ProjectCaller, fields: Record<string, unknown>) {
  if (caller.mode !== 'live') throw forbidden(TEST_KEY_CANNOT_CHANGE_SETTINGS);
  const project = await updateProjectFieldsReturning(db, caller.project.id, fields);
  if (!project) throw notFound(PROJECT_GONE);
  return { success: true as const, project: presentProject(project) };
}
