import type { Config } from '../../platform/core/config';
import type { Project } from '../../platform/projects/project';

/**
 * The monthly send quota of a project (spec part 8: every send, live or test, consumes it; dry runs
 * do not). A project stores its own setting in `monthly_quota`:
 *
 * - a whole number (0 or more): at most that many mails per UTC calendar month;
 * - `'unlimited'`: never limited, even when the deployment has a default;
 * - absent or null: the deployment default `DEFAULT_MONTHLY_QUOTA`, and unlimited when that is unset.
 */
export type MonthlyQuotaSetting = number | 'unlimited' | null;

/** Counters expire a little over a year after their first write, enough to look back on any month. */
export const USAGE_RETENTION_DAYS = 400;

/** The quota that applies to a project: a number of mails per month, or null for unlimited. */
export function effectiveQuota(project: Pick<Project, 'monthly_quota'>, config: Pick<Config, 'DEFAULT_MONTHLY_QUOTA'>): number | null {
  const own = project.monthly_quota;
  if (own === 'unlimited') return null;
  if (typeof own === 'number') return own;
  return config.DEFAULT_MONTHLY_QUOTA ?? null;
}

/** The UTC calendar month of an instant, `yyyy-mm`: the period a quota counts. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The failure message of a send refused by the quota. */
export function quotaExceededMessage(quota: number, month: string): string {
  return `Monthly quota of ${quota} email${quota === 1 ? '' : 's'} reached for ${month}`;
}
