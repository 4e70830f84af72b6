import type { Needs } from '../../platform/core/dependencies';
import { logger } from '../../platform/core/logger';
import type { Project } from '../../platform/projects/project';
import { effectiveQuota, monthOf, quotaExceededMessage } from './monthly-quota';
import { releaseSend, reserveSend } from './usage-repository';

/** The send worker's unit of quota for one mail: taken, or refused with the failure message. */
export type SendReservation = { readonly ok: true; release(): Promise<void> } | { readonly ok: false; readonly message: string };

const NOTHING_TO_RELEASE: SendReservation = { ok: true, release: async () => undefined };

/**
 * Takes one unit of the project's quota for the current UTC month just before a mail goes to SES.
 * One mail is one unit, whatever its number of recipients. A project without a limit costs nothing
 * here: no read, no write.
 */
export async function reserveMonthlySend(deps: Needs<'db' | 'clock' | 'config'>, project: Project): Promise<SendReservation> {
  const quota = effectiveQuota(project, deps.config);
  if (quota === null) return NOTHING_TO_RELEASE;
  const now = deps.clock.now();
  const month = monthOf(now);
  const shard = await reserveSend(deps.db, project.id, month, quota, now);
  if (shard === undefined) return { ok: false, message: quotaExceededMessage(quota, month) };
  return {
    ok: true,
    // The mail did not go out; a refund that fails only leaves the month one unit high.
    release: () => releaseSend(deps.db, project.id, month, shard).catch((error) => logger.warn('Quota refund failed', { error, projectId: project.id, month })),
  };
}
