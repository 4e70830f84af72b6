/**
 * The webhook step: `automation.webhook` to one of the project's webhooks, through the
 * notifications wing's delivery (its signing, SSRF guard, retries and log). The event's id (and its
 * delivery's `webhook-id`) is uuidv5(run:seq), its time the timeline entry's: a redo queues the
 * very same delivery, which receivers drop as a repeat.
 */
import { queueWebhookDelivery, webhookTargetById } from '../../../notifications/webhooks/fanout';
import type { ServiceEvent } from '../../../platform/core/events';
import type { WebhookStep } from '../definition';
import { effectIdOf } from '../ids';
import type { RunStepEntry } from '../run';
import { failure, type Decision, type StepContext } from './step-context';

/** Decides a webhook call: `posted` with the event id, or a failure when the webhook is no longer set. */
export async function decideWebhook(ctx: StepContext, step: WebhookStep): Promise<Decision> {
  const project = await ctx.project();
  if (!project || !webhookTargetById(project, step.webhook_id)) return failure('webhook_missing', `Step "${step.id}": webhook ${step.webhook_id} is not set`);
  return { outcome: 'posted', detail: { event_id: effectIdOf(ctx.run.id, ctx.seq), webhook_id: step.webhook_id }, next: step.next ?? null };
}

/** The `automation.webhook` event of a run's step. */
export function automationWebhookEvent(ctx: StepContext, step: WebhookStep, entry: RunStepEntry, lead: { id: string; email: string; data: Record<string, unknown> } | undefined): ServiceEvent {
  return {
    event: 'automation.webhook',
    timestamp: entry.at,
    project_id: ctx.run.project_id,
    data: {
      event_id: String(entry.detail?.event_id),
      automation_id: ctx.run.automation_id,
      run_id: ctx.run.id,
      step_id: step.id,
      lead_id: ctx.run.lead_id,
      email: lead?.email ?? ctx.run.email,
      lead_data: lead?.data ?? {},
      trigger_properties: ctx.run.context,
    },
  };
}

/** The webhook's effect: its one delivery queued (again, on a redo: the same delivery id). */
export async function postWebhook(ctx: StepContext, step: WebhookStep, entry: RunStepEntry): Promise<void> {
  const project = await ctx.project();
  const target = project && webhookTargetById(project, step.webhook_id);
  if (!project || !target) return;
  const lead = await ctx.lead();
  const event = automationWebhookEvent(ctx, step, entry, lead);
  await queueWebhookDelivery(ctx.engine.deps, project, target, event, `msg_${String(entry.detail?.event_id)}`);
}
