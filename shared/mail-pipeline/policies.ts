import type { ProjectCaller } from '../platform/auth/authenticate';
import type { Needs } from '../platform/core/dependencies';
import { badRequest } from '../platform/core/errors';
import { refuseDisabledProject } from '../platform/projects/project-active';

/**
 * The rules every kind of send follows, in one place: what a preview shows, the subject of a mail
 * that names none, which environments a project may send from, how a batch is cut into chunks.
 * Suppression and the monthly quota are decided by the deliverer (deliver.ts), at the last step
 * before SES, from `suppression/` and `quota/`; a dry run reads suppression the same way.
 */

/** `html_preview` (and `text_preview`) of a dry run is cut to this many characters (part 8). */
export const HTML_PREVIEW_LIMIT = 8000;

/** Recipients a batch's dry run renders in its preview. */
export const DRY_RUN_PREVIEWS = 3;

/** Recipients per chunk of a batch or a campaign's wave: one blob, one fan-out message, 20 BatchWrite requests. */
export const BATCH_CHUNK_SIZE = 500;

/** The refusals of the policies, word for word as the spec gives them. */
export const POLICY_MESSAGES = {
  environmentNotConfigured: 'ENVIRONMENT_NOT_CONFIGURED',
  templateNotFound: (id: string | number) => `Template not found with ID ${id}`,
  templateEmpty: 'TEMPLATE_EMPTY',
} as const;

/** The subject of a send that names none (part 4.1). */
export function defaultSubject(deps: Needs<'config'>): string {
  return `Email from ${deps.config.SERVICE_NAME}`;
}

/** Refuses sends that the project's state or settings rule out before anything is written (disabled project, unknown environment). */
export function checkProjectCanSend(caller: ProjectCaller, environment: string | undefined): void {
  refuseDisabledProject(caller.project);
  if (environment !== undefined && !caller.project.inbound_webhook_environments?.[environment]) {
    throw badRequest(POLICY_MESSAGES.environmentNotConfigured, 'ENVIRONMENT_NOT_CONFIGURED', { environment });
  }
}
