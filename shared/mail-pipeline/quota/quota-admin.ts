import { notFound } from '../../platform/core/errors';
import type { Clock } from '../../platform/core/ports';
import { getProject, setProjectMonthlyQuota } from '../../platform/projects/project-repository';
import type { Db } from '../../platform/store/client';
import { monthOf, type MonthlyQuotaSetting } from './monthly-quota';
import { getMonthlyUsage } from './usage-repository';

/**
 * The operator command behind `npm run admin -- project quota` (bin/admin.ts parses it): shows a
 * project's monthly quota setting and this month's count, after setting it when `monthly` is given.
 */
export interface ProjectQuotaCommand {
  readonly kind: 'project quota';
  readonly project: string;
  /** The new setting; null puts the project back on the deployment default; absent only shows. */
  readonly monthly?: MonthlyQuotaSetting;
}

/** What the command prints: the stored setting (null = deployment default) and the current month's count. */
export interface ProjectQuotaResult {
  kind: 'project quota';
  project_id: string;
  monthly_quota: MonthlyQuotaSetting;
  month: string;
  sent_this_month: number;
}

/** Runs the command. Throws AppError (404) for an unknown project. */
export async function runProjectQuotaCommand(db: Db, clock: Clock, command: ProjectQuotaCommand): Promise<ProjectQuotaResult> {
  const project = command.monthly === undefined ? await getProject(db, command.project) : await setProjectMonthlyQuota(db, command.project, command.monthly);
  if (!project) throw notFound(`Project ${command.project} not found`);
  const month = monthOf(clock.now());
  return {
    kind: 'project quota',
    project_id: project.id,
    monthly_quota: project.monthly_quota ?? null,
    month,
    sent_this_month: await getMonthlyUsage(db, project.id, month),
  };
}
