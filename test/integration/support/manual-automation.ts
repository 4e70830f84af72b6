import { randomUUID } from 'node:crypto';
import { services } from '../../../composition/services';
import { putAutomationVersion, putNewAutomation } from '../../../shared/marketing/automations/automation-gateway';
import type { ExitRule, Step } from '../../../shared/marketing/automations/definition';

/** Writes an active automation of `projectId` with a manual trigger and these steps, as of `now`; answers its id. */
export async function putManualAutomation(projectId: string, now: Date, steps: Step[], options: { reentry?: 'once' | 'every_time'; exit?: ExitRule[] } = {}): Promise<string> {
  const { db } = services();
  const id = randomUUID();
  const at = now.toISOString();
  await putNewAutomation(db, { id, project_id: projectId, name: `a-${id}`, status: 'active', version: 1, version_used: true, trigger_type: 'manual', created_at: at, updated_at: at, activated_at: at, revision: 1 });
  await putAutomationVersion(db, { automation_id: id, project_id: projectId, version: 1, created_at: at, trigger: { type: 'manual' }, entry: { filter: null, reentry: options.reentry ?? 'once' }, exit: options.exit ?? [], steps });
  return id;
}
