import { forbidden } from '../core/errors';
import type { Project } from './project';

/**
 * Refuses anything that would make mail leave a disabled project: sends, and the verification
 * mails that adding a sender makes SES or the service send.
 */
export function refuseDisabledProject(project: Pick<Project, 'disabled_at'>): void {
  if (project.disabled_at) throw forbidden('Project is disabled; sending is stopped', 'PROJECT_DISABLED');
}
