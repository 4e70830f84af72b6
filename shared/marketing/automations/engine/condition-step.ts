/** The condition step: yes or no, from the audience filter on the lead, or from the engagement of a mail this run sent. */
import { getActivity } from '../../../mail-pipeline/activity/activity-repository';
import type { ConditionStep } from '../definition';
import { leadMatches } from './lead-facts';
import { failure, type Decision, type StepContext } from './step-context';

/** Whether the condition holds: the filter (events included), or whether the mail the run's `sends` names was opened (by a person) or clicked. */
async function holds(ctx: StepContext, step: ConditionStep): Promise<boolean | undefined> {
  const condition = step.condition;
  if ('filter' in condition) {
    const lead = await ctx.lead();
    return lead ? leadMatches(ctx.engine.deps.db, ctx.run.project_id, lead, condition.filter, ctx.now) : undefined;
  }
  const sendStep = 'opened' in condition ? condition.opened : condition.clicked;
  const activityId = ctx.run.sends?.[sendStep];
  if (!activityId) return false;
  const activity = await getActivity(ctx.engine.deps.db, activityId);
  if (!activity) return false;
  // A click implies an open; machine opens (privacy prefetchers) do not count as one.
  return 'opened' in condition ? Boolean(activity.human_opened_at || activity.clicked_first_at) : Boolean(activity.clicked_first_at);
}

/** Decides the branch; a deleted lead fails a filter condition. */
export async function decideCondition(ctx: StepContext, step: ConditionStep): Promise<Decision> {
  const yes = await holds(ctx, step);
  if (yes === undefined) return failure('lead_deleted', 'The lead was deleted');
  return { outcome: 'branch', detail: { branch: yes ? 'yes' : 'no' }, next: (yes ? step.yes : step.no) ?? null };
}
