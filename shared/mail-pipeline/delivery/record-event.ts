import { getActivity, statusIndexFields, updateActivityIfVersion } from '../activity/activity-repository';
import type { Activity } from '../activity/activity';
import type { Needs } from '../../platform/core/dependencies';
import { emailEvent, failedEvent, hasWebhookTargets, isApiSend } from '../events/email-events';
import type { ServiceEvent } from '../../platform/core/events';
import type { Project } from '../../platform/projects/project';
import { getProjectCached } from '../../platform/projects/project-repository';
import { domainOf } from '../../platform/mail/addresses';
import { dayOf, type CounterBatch } from '../../identities/stats/domain-stats';
import { ttlAfterDays } from '../../platform/store/client';
import { suppressAutomatically } from '../suppression/suppression-service';
import { applyDeliveryEvent } from './apply-event';
import type { CampaignTally } from './campaign-tally';
import { engagementRecorded, putEngagement } from './engagement-repository';
import { countDeferral } from './provider-deferrals';
import type { DeliveryEvent } from './ses-event';

export type RecordOutcome = 'applied' | 'duplicate' | 'unknown_activity';

/** Projects read once per batch of events. */
export type ProjectCache = Map<string, Promise<Project | undefined>>;

/**
 * Records one delivery event (from SES, or from our own open and click tracking) on its activity.
 * Order matters for crash safety: the duplicate check, then the idempotent side effects
 * (suppression, webhooks: a crash before the write repeats them, which part 6 tells receivers to
 * expect), then the record write, conditional on the version read (a concurrent writer makes us
 * start over, and the second pass finds a duplicate). Counters come last; a crash there only
 * makes the statistics a little low. Campaign counters are added only when this call's write
 * applied the transition, so an event seen twice counts once.
 */
export async function recordDeliveryEvent(
  deps: Needs<'config' | 'db' | 'clock' | 'events'>,
  event: DeliveryEvent,
  counters?: CounterBatch,
  projects: ProjectCache = new Map(),
  campaigns?: CampaignTally,
  /**
   * Set by our own pixel and redirect, which minted the event in this request: the record they read
   * strongly consistent (the first round needs no read of its own), and no duplicate check, since
   * the event's key carries this request's time and cannot have been recorded before this
   * request's first round (the conditional put still refuses a second one; a later round checks).
   */
  minted?: { activity: Activity },
): Promise<RecordOutcome> {
  if (!event.activityId) return 'unknown_activity';
  // An open or click this call already stored: a later round (the record changed under us) must still apply it.
  let storedEngagement = false;
  for (let round = 0; round < 4; round++) {
    const activity = round === 0 && minted?.activity.id === event.activityId ? minted.activity : await getActivity(deps.db, event.activityId, true);
    if (!activity || (event.projectId && activity.project_id !== event.projectId)) return 'unknown_activity';
    const now = deps.clock.now().toISOString();
    const applied = applyDeliveryEvent(activity, event, now);
    if (applied.duplicate) return 'duplicate';
    if (!storedEngagement && applied.engagement && applied.timelineEvent && !(minted && round === 0) && (await engagementRecorded(deps.db, activity.id, applied.timelineEvent))) return 'duplicate';

    // Trusted for PROJECT_CACHE_SECONDS: only its webhook targets and suppression settings are used here.
    if (!projects.has(activity.project_id)) projects.set(activity.project_id, getProjectCached(deps.db, deps.clock, activity.project_id));
    const project = await projects.get(activity.project_id);
    if (!project) return 'unknown_activity';

    if (applied.suppress) {
      for (const email of applied.suppress.recipients) {
        await suppressAutomatically(deps, project, {
          project_id: project.id,
          email,
          reason: applied.suppress.reason,
          source: 'ses',
          description: applied.suppress.description ?? null,
          bounce_type: applied.suppress.bounce_type ?? null,
          bounce_subtype: applied.suppress.bounce_subtype ?? null,
          complaint_feedback_type: applied.suppress.complaint_feedback_type ?? null,
          suppressed_at: event.timestamp,
        });
      }
    }
    const outs = hasWebhookTargets(project) ? webhooksFor(activity, event, applied, now) : [];
    // email.send goes out from whoever records the send, after its write: published before it, a
    // Send event that loses the race to the worker's own `sent` write would announce the send a
    // second time, with SES's time where the worker's has the worker's (two events a receiver
    // cannot tell for one). Every other event goes out before its write, so a crash loses none.
    const afterWrite = event.type === 'send';
    if (!afterWrite) for (const out of outs) await deps.events.publish(out);

    if (applied.engagement && applied.timelineEvent && !storedEngagement) {
      if (!(await putEngagement(deps.db, activity.id, applied.timelineEvent, ttlAfterDays(deps.clock.now(), deps.config.ACTIVITY_RETENTION_DAYS)))) return 'duplicate';
      storedEngagement = true;
    }
    if (Object.keys(applied.changes).length > 0) {
      const fields = { ...applied.changes, ...(applied.status ? statusIndexFields(activity, applied.status) : {}) };
      if (!(await updateActivityIfVersion(deps.db, activity.id, activity.version ?? 1, fields))) continue;
    }
    if (afterWrite) for (const out of outs) await deps.events.publish(out);
    for (const field of applied.counters) counters?.add(activity.project_id, domainOf(activity.sender_email), dayOf(event.timestamp), field);
    for (const field of applied.projectCounters) counters?.addProject(activity.project_id, activity.is_test ? 'test' : 'live', event.timestamp, field);
    if (activity.campaign_id) for (const field of applied.campaignCounters) campaigns?.add(activity.campaign_id, field);
    if (activity.automation_step) for (const field of applied.campaignCounters) campaigns?.addStep?.(activity.automation_step, field);
    // A campaign mail's deferral slows its provider's pace (at most once per event: duplicates returned above).
    await countDeferral(deps, activity, event);
    return 'applied';
  }
  throw new Error(`Activity ${event.activityId} kept changing while recording a ${event.type} event`);
}

/** The part-6 events one delivery event produces (and email.failed when it failed an API send). */
function webhooksFor(activity: Activity, event: DeliveryEvent, applied: ReturnType<typeof applyDeliveryEvent>, now: string): ServiceEvent[] {
  const out: ServiceEvent[] = [];
  if (applied.webhook) {
    const extra: Record<string, unknown> = {};
    if (event.type === 'bounce') Object.assign(extra, { bounce_type: event.bounce?.bounceType, bounce_subtype: event.bounce?.bounceSubType });
    if (event.type === 'complaint') extra.complaint_feedback_type = event.complaint?.feedbackType ?? null;
    if (event.type === 'click') extra.url_clicked = event.click?.link;
    // Our own pixel and redirect know the activity, not always the provider's message id (part 6).
    const messageId = event.messageId || activity.message_id || null;
    out.push(emailEvent(applied.webhook, activity, { now, eventTimestamp: event.timestamp, recipient: event.recipients[0], messageId, extra }));
  }
  if (applied.failure && isApiSend(activity)) out.push(failedEvent(activity, applied.failure, now));
  return out;
}
