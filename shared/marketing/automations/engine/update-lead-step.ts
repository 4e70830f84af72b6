/** The update_lead step: tags, attributes and static memberships through the leads' own service (idempotent sets: a redo changes nothing more). */
import { applyLeadChanges } from '../../../audience/leads/lead-service';
import type { UpdateLeadStep } from '../definition';
import { failure, type Decision, type StepContext } from './step-context';

/** Decides an update: `updated`, or a failure when the lead is gone. */
export async function decideUpdate(ctx: StepContext, step: UpdateLeadStep): Promise<Decision> {
  if (!(await ctx.lead())) return failure('lead_deleted', 'The lead was deleted');
  const detail: Record<string, unknown> = {};
  if (step.add_tags?.length) detail.add_tags = step.add_tags;
  if (step.remove_tags?.length) detail.remove_tags = step.remove_tags;
  if (step.set_attributes && Object.keys(step.set_attributes).length > 0) detail.set_attributes = Object.keys(step.set_attributes);
  return { outcome: 'updated', detail, next: step.next ?? null };
}

/** The update's effect, on the lead as it is now (a lead deleted since changes nothing). */
export async function updateLead(ctx: StepContext, step: UpdateLeadStep): Promise<void> {
  const lead = await ctx.lead();
  if (!lead) return;
  await applyLeadChanges(ctx.engine.deps, ctx.run.project_id, lead.email, {
    addTags: step.add_tags,
    removeTags: step.remove_tags,
    setAttributes: step.set_attributes,
    addSegmentIds: step.add_segment_ids,
    removeSegmentIds: step.remove_segment_ids,
  });
}
