import type { Activity, ActivityFailure, ActivityStatus, TimelineEvent } from '../activity/activity';
import { derivedEvent, eventId } from '../activity/timeline';
import type { CounterField, ProjectCounterField } from '../../identities/stats/domain-stats';
import type { CampaignEventCounter } from './campaign-tally';
import type { DeliveryEvent } from './ses-event';

/** How far along a mail is; an event never moves it backwards (a late Delivery never undoes a Bounce). */
const RANK: Record<ActivityStatus, number> = {
  queued: 0,
  retrying: 0,
  sent: 1,
  delivered: 2,
  bounced: 3,
  complained: 4,
  // Decided by us, not by the recipient's side: delivery events do not move these.
  failed: 9,
  suppressed: 9,
  cancelled: 9,
};

/** Webhook kinds of part 6, by event type. */
const WEBHOOK_KIND = {
  send: 'send',
  delivery: 'delivery',
  bounce: 'bounce',
  complaint: 'complaint',
  reject: 'reject',
  delivery_delay: 'deliverydelay',
  open: 'open',
  click: 'click',
} as const;

/** Timeline `event_type` of part 2, by event type. */
const TIMELINE_TYPE: Record<string, string> = {
  send: 'sent',
  delivery: 'delivered',
  bounce: 'bounce',
  complaint: 'complaint',
  reject: 'reject',
  rendering_failure: 'rendering_failure',
  delivery_delay: 'delivery_delay',
  open: 'open',
  click: 'click',
};

export interface AppliedEvent {
  /** The same event was already recorded: nothing to do. */
  duplicate: boolean;
  /** Fields to set on the activity record (empty: the record does not change). */
  changes: Record<string, unknown>;
  /** The new status, when it changes. */
  status?: ActivityStatus;
  /** The timeline entry: inline for status events, a separate item for opens and clicks. */
  timelineEvent?: TimelineEvent;
  engagement: boolean;
  /** A final failure decided by this event (Reject, Rendering Failure): email.failed once. */
  failure?: ActivityFailure;
  /** Addresses to suppress, and why. */
  suppress?: { reason: 'bounce' | 'complaint'; recipients: string[]; bounce_type?: string; bounce_subtype?: string; complaint_feedback_type?: string; description?: string };
  /** Counters to add one to (live traffic only). */
  counters: CounterField[];
  /** The project's hourly counters to add one to (GET /v1/stats; test traffic too, kept apart by mode). */
  projectCounters: ProjectCounterField[];
  /** The mail's campaign's counters to add one to (test and live campaigns alike). */
  campaignCounters: CampaignEventCounter[];
  /** The webhook kind to publish, if any. */
  webhook?: (typeof WEBHOOK_KIND)[keyof typeof WEBHOOK_KIND];
}

export { eventId };

const earliest = (current: string | undefined, candidate: string) => (!current || candidate < current ? candidate : current);

/**
 * Part 3's state machine for one delivery event, as a pure function: what changes on the record,
 * what is suppressed, counted and published. Events come out of order and more than once: the rank
 * only rises, first-open and first-click keep the earliest time, and a timeline id already present
 * (or, for a Delivery, its time already recorded) makes the whole event a no-op. `sent` and the
 * first `delivered` are not stored in the timeline: their `*_at` fields tell them (activity/timeline.ts).
 */
export function applyDeliveryEvent(activity: Activity, event: DeliveryEvent, nowIso: string): AppliedEvent {
  // Two clicks on different links can share a timestamp: the link is part of a click's identity.
  const id = eventId(event.type === 'click' ? `${event.dedupeKey}|${event.click?.link ?? ''}` : event.dedupeKey);
  const engagement = event.type === 'open' || event.type === 'click';
  const timeline = activity.timeline ?? [];
  const result: AppliedEvent = { duplicate: false, changes: {}, counters: [], projectCounters: [], campaignCounters: [], engagement };
  if (!engagement && timeline.some((e) => e.id === id)) return { ...result, duplicate: true };
  // A Delivery is told by delivered_at (or by a stored entry at its time): the same time again is the same event.
  const storedDelivery = (at: string) => timeline.some((e) => e.event_type === 'delivered' && e.event_timestamp === at);
  if (event.type === 'delivery' && (activity.delivered_at === event.timestamp || storedDelivery(event.timestamp))) return { ...result, duplicate: true };
  // The worker records its own send (sent_at); SES's Send event then only fills what a crash may have left out.
  const alreadySent = event.type === 'send' && (Boolean(activity.sent_at) || timeline.some((e) => e.event_type === 'sent'));

  const live = !activity.is_test;
  const changes = result.changes;
  const moveTo = (status: ActivityStatus) => {
    if (RANK[status] > RANK[activity.current_status]) {
      result.status = status;
      changes.current_status = status;
    }
  };
  if (!activity.message_id && event.messageId) changes.message_id = event.messageId;

  const entry: TimelineEvent = { id, event_type: TIMELINE_TYPE[event.type] ?? event.type, event_timestamp: event.timestamp, created_at: nowIso };
  // Entries to store beside (or instead of) this event's: none when a field of the record tells it.
  let stored: TimelineEvent[] = [entry];
  switch (event.type) {
    case 'send':
      moveTo('sent');
      // Whoever sets sent_at first counts the send (the worker normally does, see deliver-send.ts).
      if (!activity.sent_at) {
        changes.sent_at = event.timestamp;
        result.counters.push(live ? 'sent' : 'sent_test');
        result.projectCounters.push('sent');
      }
      stored = [];
      break;
    case 'delivery':
      moveTo('delivered');
      changes.delivered_at = earliest(activity.delivered_at, event.timestamp);
      if (changes.delivered_at === event.timestamp) {
        // This one is now told by delivered_at; an earlier-recorded later one must be stored, or it would vanish.
        stored = activity.delivered_at && !storedDelivery(activity.delivered_at) ? [derivedEvent(activity.id, 'delivered', activity.delivered_at)] : [];
      }
      if (result.status === 'delivered' && live) result.counters.push('delivered');
      // The mail's first Delivery, even when a Complaint recorded before it moved the status past `delivered`.
      if (!activity.delivered_at) result.projectCounters.push('delivered');
      if (result.status === 'delivered') result.campaignCounters.push('delivered');
      break;
    case 'bounce': {
      const permanent = event.bounce?.bounceType === 'Permanent';
      moveTo('bounced');
      changes.bounced_at = earliest(activity.bounced_at, event.timestamp);
      Object.assign(entry, { bounce_type: event.bounce?.bounceType, bounce_subtype: event.bounce?.bounceSubType });
      if (live) result.counters.push(permanent ? 'hard_bounced' : 'soft_bounced');
      result.projectCounters.push(permanent ? 'bounced' : 'bounced_transient');
      // Once per mail: a second bounce of the same mail does not move it (the reputation guard reads these).
      if (result.status === 'bounced') result.campaignCounters.push(permanent ? 'hard_bounced' : 'soft_bounced');
      // SES keeps its own account-level list; part 6: no suppression.added for OnAccountSuppressionList.
      if (permanent && event.bounce?.bounceSubType !== 'OnAccountSuppressionList') {
        result.suppress = {
          reason: 'bounce',
          recipients: event.recipients,
          bounce_type: event.bounce?.bounceType,
          bounce_subtype: event.bounce?.bounceSubType,
          description: event.bounce?.diagnostics,
        };
      }
      break;
    }
    case 'complaint':
      moveTo('complained');
      changes.complained_at = earliest(activity.complained_at, event.timestamp);
      entry.complaint_feedback_type = event.complaint?.feedbackType;
      if (live) result.counters.push('complained');
      result.projectCounters.push('complained');
      if (result.status === 'complained') result.campaignCounters.push('complained');
      // A complaint SES recorded against its account-level list was never sent: nothing to add.
      if (event.complaint?.subType !== 'OnAccountSuppressionList') {
        result.suppress = { reason: 'complaint', recipients: event.recipients, complaint_feedback_type: event.complaint?.feedbackType };
      }
      break;
    case 'reject':
    case 'rendering_failure':
      if (RANK[activity.current_status] < RANK.delivered) {
        result.status = 'failed';
        changes.current_status = 'failed';
        result.failure =
          event.type === 'reject'
            ? { error_code: 'rejected', error_message: `Rejected by the provider: ${event.reject?.reason ?? 'unknown reason'}`, permanent: true }
            : { error_code: 'send_failed', error_message: `Rendering failed: ${event.renderingFailure?.errorMessage ?? 'unknown error'}`, permanent: true };
        changes.failure = result.failure;
        result.projectCounters.push('failed');
      }
      break;
    case 'open':
      Object.assign(entry, { user_agent: event.open?.userAgent, ip_address: event.open?.ipAddress });
      if (!activity.opened_first_at && live) result.counters.push('unique_opens');
      if (!activity.opened_first_at) result.projectCounters.push('opened');
      if (!activity.opened_first_at || event.timestamp < activity.opened_first_at) changes.opened_first_at = event.timestamp;
      // Set in the same write as opened_first_at when the first open is a person's: no extra write unit.
      if (event.open?.machine) {
        if (!activity.machine_opened_at) result.campaignCounters.push('machine_opened');
        if (!activity.machine_opened_at || event.timestamp < activity.machine_opened_at) changes.machine_opened_at = event.timestamp;
      } else {
        if (!activity.human_opened_at) result.campaignCounters.push('opened');
        if (!activity.human_opened_at || event.timestamp < activity.human_opened_at) changes.human_opened_at = event.timestamp;
      }
      break;
    case 'click':
      Object.assign(entry, { user_agent: event.click?.userAgent, ip_address: event.click?.ipAddress, url_clicked: event.click?.link });
      if (!activity.clicked_first_at && live) result.counters.push('unique_clicks');
      if (!activity.clicked_first_at) result.projectCounters.push('clicked');
      if (!activity.clicked_first_at) result.campaignCounters.push('clicked');
      if (!activity.clicked_first_at || event.timestamp < activity.clicked_first_at) changes.clicked_first_at = event.timestamp;
      break;
    default:
      // Delivery delays only join the timeline; subscription events carry nothing for the record.
      break;
  }
  if (event.type !== 'subscription' && !alreadySent) {
    result.timelineEvent = entry;
    if (!engagement && stored.length > 0) changes.timeline = [...timeline, ...stored];
  }
  const kind = (WEBHOOK_KIND as Record<string, AppliedEvent['webhook']>)[event.type];
  if (kind && !alreadySent) result.webhook = kind;
  // A Send event that set sent_at itself, seen again: its email.send may have been lost to a crash
  // after the write, so it goes out again with the same event_timestamp (a receiver deduplicates it).
  if (kind && event.type === 'send' && activity.sent_at === event.timestamp) result.webhook = kind;
  if (Object.keys(changes).length > 0) changes.updated_at = nowIso;
  return result;
}
