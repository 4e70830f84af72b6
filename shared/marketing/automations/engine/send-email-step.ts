/**
 * The send_email step: one mail through the one mail pipeline, as the activity uuidv5(run:seq), so
 * a redo finds the activity its first try accepted and sends nothing twice. Suppressed and
 * unsubscribed leads get the pipeline's own answer (the activity ends `suppressed`); the timeline
 * says so and the run goes on.
 */
import { withoutTags, type Lead } from '../../../audience/leads/lead';
import type { SenderProfile } from '../../../identities/domains/domain';
import { findSenderById } from '../../../identities/domains/sender-service';
import { getActivity, putActivityBody } from '../../../mail-pipeline/activity/activity-repository';
import { composeMail, encodeMailBody, packStoredSendJob, queueSends } from '../../../mail-pipeline';
import { findSuppressed } from '../../../mail-pipeline/suppression/suppression-repository';
import type { Template } from '../../../mail-pipeline/templates/template';
import { getTemplate } from '../../../mail-pipeline/templates/template-repository';
import type { ProjectCaller } from '../../../platform/auth/authenticate';
import type { Project } from '../../../platform/projects/project';
import { ttlAfterDays } from '../../../platform/store/client';
import type { SendEmailStep } from '../definition';
import { effectIdOf } from '../ids';
import type { AutomationRun, RunStepEntry } from '../run';
import { failure, type Decision, type StepContext } from './step-context';

/** What a send needs besides the run: its template, its sender, the lead and the project. */
interface SendMaterial {
  template: Template;
  sender: SenderProfile;
  lead: Lead;
  project: Project;
}

/** The template, sender, lead and project of a send, or why the step cannot send. */
async function material(ctx: StepContext, step: SendEmailStep): Promise<SendMaterial | Decision> {
  const { db } = ctx.engine.deps;
  const [template, sender, lead, project] = await Promise.all([getTemplate(db, ctx.run.project_id, step.template_id), findSenderById({ db }, ctx.run.project_id, step.sender_profile_id), ctx.lead(), ctx.project()]);
  if (!template) return failure('template_deleted', `Step "${step.id}": template ${step.template_id} does not exist`);
  if (!sender) return failure('sender_deleted', `Step "${step.id}": sender profile ${step.sender_profile_id} does not exist`);
  if (!lead) return failure('lead_deleted', 'The lead was deleted');
  if (!project) return failure('project_deleted', 'The project no longer exists');
  return { template, sender, lead, project };
}

const isDecision = (value: SendMaterial | Decision): value is Decision => 'outcome' in value;

/** How long a marketing send of a project whose marketing is paused waits before it looks again (within SQS's delay). */
export const MARKETING_HOLD_MS = 15 * 60_000;

/** Decides a send: `sent` (or `skipped_suppressed` when the address is on the suppression list), with the activity id; or a failure. */
export async function decideSend(ctx: StepContext, step: SendEmailStep): Promise<Decision> {
  const found = await material(ctx, step);
  if (isDecision(found)) return found;
  // The reputation watch paused the project's marketing: the run waits at this step and sends once
  // an operator resumes (run-steps.ts wakes a run held at a send into the same send).
  if (step.email_type === 'marketing' && found.project.marketing_pause) {
    return { outcome: 'waiting', detail: { until: new Date(ctx.now.getTime() + MARKETING_HOLD_MS).toISOString(), held: 'marketing_paused' }, next: step.id };
  }
  const activityId = effectIdOf(ctx.run.id, ctx.seq);
  const suppressed = (await findSuppressed(ctx.engine.deps.db, ctx.run.project_id, [found.lead.email])).get(found.lead.email);
  if (suppressed) return { outcome: 'skipped_suppressed', detail: { activity_id: activityId, reason: suppressed.reason }, next: step.next ?? null };
  return { outcome: 'sent', detail: { activity_id: activityId }, next: step.next ?? null };
}

/** The template's variables of a run's mail: the lead's data, its email, the trigger's `event` and the `run`. */
export function mailVariables(run: AutomationRun, lead: Lead): Record<string, unknown> {
  return { ...withoutTags(lead.data), email: lead.email, event: run.context, run: { id: run.id, automation_id: run.automation_id } };
}

/**
 * The send's effect: accepts the mail as activity `activity_id` unless an earlier try did (then
 * only a job of a record still `queued` is queued again: the send worker's claim keeps one).
 * True when this call accepted it.
 */
export async function sendMail(ctx: StepContext, step: SendEmailStep, entry: RunStepEntry): Promise<boolean> {
  const { deps } = ctx.engine;
  const activityId = String(entry.detail?.activity_id);
  const found = await material(ctx, step);
  if (isDecision(found)) return false;
  const caller: ProjectCaller = { kind: 'project', mode: 'live', project: found.project };
  const secret = await deps.tokenSecret();
  const composed = composeMail(deps, {
    content: {
      recipient: found.lead.email,
      sender: found.sender.from_email,
      senderName: found.sender.from_name || undefined,
      subject: step.subject,
      data: mailVariables(ctx.run, found.lead),
      emailType: step.email_type,
      cc: [],
      bcc: [],
      attachments: [],
      customHeaders: {},
      references: [],
    },
    template: found.template,
    activityId,
    projectId: ctx.run.project_id,
    secret,
  });
  const existing = await getActivity(deps.db, activityId, true);
  if (!existing) {
    await queueSends(
      deps,
      caller,
      [
        {
          activityId,
          payload: composed.payload,
          emailType: step.email_type,
          recipientCount: 1,
          templateId: found.template.id,
          automationRunId: ctx.run.id,
          automationStep: `${ctx.run.automation_id}/${step.id}`,
        },
      ],
      'keep-queued',
    );
    return true;
  }
  if (existing.current_status !== 'queued') return false;
  // An earlier try wrote the record and died before its body or its job: both again (the claim keeps one job).
  await putActivityBody(deps.db, activityId, encodeMailBody(deps, activityId, composed.payload, secret), ttlAfterDays(deps.clock.now(), deps.config.ACTIVITY_RETENTION_DAYS));
  await deps.queue.send('send', await packStoredSendJob(deps, ctx.run.project_id, activityId, composed.payload));
  return false;
}
