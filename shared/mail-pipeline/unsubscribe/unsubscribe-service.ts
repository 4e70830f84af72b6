import { decodeBody } from '../activity/activity-body';
import { getActivity, getActivityWithBody } from '../activity/activity-repository';
import type { Needs } from '../../platform/core/dependencies';
import type { CampaignTally } from '../delivery/campaign-tally';
import { getProject } from '../../platform/projects/project-repository';
import { addSuppressionIfAbsent, type SuppressionEntry } from '../suppression/suppression-repository';
import { suppressAutomatically } from '../suppression/suppression-service';
import { verifyUnsubscribeToken, verifyViewToken, type UnsubscribeToken } from './unsubscribe-tokens';

/** Whom an unsubscribe link names: the token's content and the project (and campaign, if any) of its (still existing) activity. */
export type UnsubscribeTarget = UnsubscribeToken & { projectId: string; campaignId?: string };

/** How the unsubscribe arrived: RFC 8058 one-click from a mail client, or the page's button. */
export type UnsubscribeSource = 'one_click' | 'page';

/** The token's target when the token is valid and its activity still exists; undefined otherwise. */
export async function unsubscribeTarget(deps: Needs<'db' | 'tokenSecret'>, token: string | undefined): Promise<UnsubscribeTarget | undefined> {
  const content = verifyUnsubscribeToken(token, await deps.tokenSecret());
  if (!content) return undefined;
  const activity = await getActivity(deps.db, content.activityId);
  return activity ? { ...content, projectId: activity.project_id, ...(activity.campaign_id ? { campaignId: activity.campaign_id } : {}) } : undefined;
}

/**
 * Suppresses the target's address in its project, idempotently: an address already suppressed
 * (for any reason) stays as it is. A project that still exists gets its `suppression.added`
 * event; a deleted project's address is suppressed all the same, silently. A campaign mail's
 * unsubscribe counts `unsubscribed` once: only the call that added the entry counts.
 */
export async function unsubscribe(deps: Needs<'db' | 'clock' | 'events'>, target: UnsubscribeTarget, source: UnsubscribeSource, campaigns?: CampaignTally): Promise<void> {
  const entry: SuppressionEntry = {
    project_id: target.projectId,
    email: target.email,
    reason: 'unsubscribe',
    source,
    description: null,
    suppressed_at: deps.clock.now().toISOString(),
  };
  const project = await getProject(deps.db, target.projectId);
  const added = project ? await suppressAutomatically(deps, project, entry) : await addSuppressionIfAbsent(deps.db, entry);
  if (added && target.campaignId) campaigns?.add(target.campaignId, 'unsubscribed');
}

/** The HTML of the mail a view token names, or undefined when the token or the mail is gone. */
export async function viewInBrowser(deps: Needs<'db' | 'tokenSecret'>, token: string | undefined): Promise<string | undefined> {
  const activityId = verifyViewToken(token, await deps.tokenSecret());
  if (!activityId) return undefined;
  const { activity, body } = await getActivityWithBody(deps.db, activityId);
  return activity && body ? decodeBody(body).html : undefined;
}
