import { randomUUID } from 'node:crypto';
import { upsertLeads } from '../../../shared/audience/leads/lead-upsert';
import { listSenders } from '../../../shared/identities/domains/sender-repository';
import { putAutomationVersion, putNewAutomation } from '../../../shared/marketing/automations/automation-gateway';
import { getRun } from '../../../shared/marketing/automations/automation-run-gateway';
import type { EngineMessage } from '../../../shared/marketing/automations/engine-messages';
import { effectIdOf, runIdOf } from '../../../shared/marketing/automations/ids';
import { services } from '../../../composition/services';
import { campaignTemplate } from './campaigns';
import type { FaultCloud } from './fault-cloud';

/**
 * Automations for the fault suite: an active automation whose run updates its lead (a tag), mails
 * it, then checks the tag (a run that skipped the update would exit instead of completing); a lead;
 * and the `enter` message on the `automations` queue, as a trigger would put it.
 */

/** A run about to enter: its automation, its derived run id, and the one mail it owns. */
export interface TestAutomationRun {
  readonly automationId: string;
  readonly runId: string;
  readonly mail: { id: string; recipient: string };
}

let templateId: string | undefined;

/** Writes the automation and the lead, and queues the lead's entry. */
export async function enterAutomation(fc: FaultCloud, tag: string): Promise<TestAutomationRun> {
  const { db, clock, queue } = services();
  const projectId = fc.cloud.seed.project_id;
  templateId ??= await campaignTemplate(fc);
  const senderId = (await listSenders(db, projectId))[0].id;
  const automationId = randomUUID();
  const now = clock.now().toISOString();
  await putNewAutomation(db, { id: automationId, project_id: projectId, name: tag, status: 'active', version: 1, version_used: true, trigger_type: 'manual', created_at: now, updated_at: now, revision: 1 });
  await putAutomationVersion(db, {
    automation_id: automationId,
    project_id: projectId,
    version: 1,
    created_at: now,
    trigger: { type: 'manual' },
    entry: { filter: null, reentry: 'once' },
    exit: [],
    steps: [
      { id: 'tag', type: 'update_lead', add_tags: ['faulted'], next: 'mail' },
      { id: 'mail', type: 'send_email', template_id: templateId, sender_profile_id: senderId, email_type: 'marketing', next: 'check' },
      { id: 'check', type: 'condition', condition: { filter: { match: 'all', conditions: [{ tags: { any: ['faulted'] } }] } }, yes: null, no: 'skipped' },
      { id: 'skipped', type: 'exit' },
    ],
  });
  const email = `${tag}@example.com`;
  const { results } = await upsertLeads(db, clock, projectId, [{ email, data: { name: tag }, segmentIds: [] }]);
  const leadId = results[0].id as string;
  const key = `faults:${tag}`;
  const message: EngineMessage = { kind: 'enter', v: 1, project_id: projectId, automation_id: automationId, trigger: 'manual', entrants: [{ lead_id: leadId, email, key }] };
  await queue.send('automations', message);
  const runId = runIdOf(automationId, leadId, key);
  return { automationId, runId, mail: { id: effectIdOf(runId, 2), recipient: email } };
}

/** What is wrong with the run once everything settled: it must have completed past its three steps. */
export async function automationRunProblems(run: TestAutomationRun): Promise<string[]> {
  const stored = await getRun(services().db, run.runId, true);
  if (stored?.state !== 'completed' || stored.seq !== 3) return [`run ${run.runId}: ${stored?.state} at seq ${stored?.seq} (${stored?.end_reason})`];
  return [];
}
