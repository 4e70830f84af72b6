import type { Activity } from '../../../../shared/mail-pipeline/activity/activity';
import { fullTimeline } from '../../../../shared/mail-pipeline/activity/timeline';
import { applyDeliveryEvent, eventId } from '../../../../shared/mail-pipeline/delivery/apply-event';
import type { DeliveryEvent } from '../../../../shared/mail-pipeline/delivery/ses-event';

const NOW = '2030-01-01T12:00:00.000Z';

function activity(over: Partial<Activity> = {}): Activity {
  return {
    id: 'a1',
    project_id: 'p1',
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    email_type: 'api',
    subject: 'Hi',
    sender_email: 'news@example.com',
    recipient_primary: 'r@example.net',
    recipient_count: 1,
    current_status: 'sent',
    is_test: false,
    message_id: 'm1',
    version: 3,
    timeline: [{ id: 'x', event_type: 'sent', event_timestamp: '2030-01-01T00:00:01.000Z', created_at: '2030-01-01T00:00:01.000Z' }],
    ...over,
  };
}

function event(type: DeliveryEvent['type'], timestamp: string, extra: Partial<DeliveryEvent> = {}): DeliveryEvent {
  return { type, activityId: 'a1', projectId: 'p1', messageId: 'm1', timestamp, recipients: ['r@example.net'], dedupeKey: `${type}|${timestamp}`, ...extra };
}

const bounce = (t: string, bounceType = 'Permanent', bounceSubType = 'General') => event('bounce', t, { bounce: { bounceType, bounceSubType } });

describe('Delivery events move the activity forward only (part 3)', () => {
  test('Delivery: sent -> delivered with delivered_at, counted, webhook email.delivery', () => {
    const r = applyDeliveryEvent(activity(), event('delivery', '2030-01-01T00:00:05.000Z'), NOW);
    expect(r.status).toBe('delivered');
    expect(r.changes).toMatchObject({ current_status: 'delivered', delivered_at: '2030-01-01T00:00:05.000Z', updated_at: NOW });
    expect(r.counters).toEqual(['delivered']);
    expect(r.webhook).toBe('delivery');
    // delivered_at tells the entry (activity/timeline.ts): the stored timeline does not grow.
    expect(r.changes.timeline).toBeUndefined();
  });

  test('a late Delivery never undoes a Bounce, but its time is kept', () => {
    const r = applyDeliveryEvent(activity({ current_status: 'bounced' }), event('delivery', '2030-01-01T00:00:05.000Z'), NOW);
    expect(r.status).toBeUndefined();
    expect(r.changes.current_status).toBeUndefined();
    expect(r.changes.delivered_at).toBe('2030-01-01T00:00:05.000Z');
    expect(r.counters).toEqual([]);
  });

  test('a Complaint after a Delivery moves on to complained and suppresses for complaint', () => {
    const r = applyDeliveryEvent(activity({ current_status: 'delivered' }), event('complaint', '2030-01-01T01:00:00.000Z', { complaint: { feedbackType: 'abuse' } }), NOW);
    expect(r.status).toBe('complained');
    expect(r.suppress).toEqual({ reason: 'complaint', recipients: ['r@example.net'], complaint_feedback_type: 'abuse' });
    expect(r.counters).toEqual(['complained']);
  });

  test('a permanent bounce suppresses; a transient one does not and counts as soft', () => {
    expect(applyDeliveryEvent(activity(), bounce('2030-01-01T00:00:05.000Z'), NOW).suppress).toMatchObject({ reason: 'bounce', bounce_type: 'Permanent' });
    const soft = applyDeliveryEvent(activity(), bounce('2030-01-01T00:00:05.000Z', 'Transient', 'MailboxFull'), NOW);
    expect(soft.suppress).toBeUndefined();
    expect(soft.counters).toEqual(['soft_bounced']);
    expect(soft.status).toBe('bounced');
  });

  test('a bounce from SES account-level list suppresses nothing of ours', () => {
    expect(applyDeliveryEvent(activity(), bounce('2030-01-01T00:00:05.000Z', 'Permanent', 'OnAccountSuppressionList'), NOW).suppress).toBeUndefined();
  });

  test('the same event again is a duplicate and changes nothing', () => {
    const first = applyDeliveryEvent(activity(), event('delivery', '2030-01-01T00:00:05.000Z'), NOW);
    const stored = { ...activity(), ...first.changes } as Activity;
    const again = applyDeliveryEvent(stored, event('delivery', '2030-01-01T00:00:05.000Z'), NOW);
    expect(again).toMatchObject({ duplicate: true, changes: {}, counters: [], campaignCounters: [] });
    expect(again.webhook).toBeUndefined();
  });

  test('a repeated Delivery of a record written before (its entry stored) is still a duplicate', () => {
    const old = activity({ current_status: 'delivered', delivered_at: '2030-01-01T00:00:05.000Z', timeline: [{ id: 'd', event_type: 'delivered', event_timestamp: '2030-01-01T00:00:05.000Z', created_at: NOW }] });
    expect(applyDeliveryEvent(old, event('delivery', '2030-01-01T00:00:05.000Z', { dedupeKey: 'other' }), NOW).duplicate).toBe(true);
  });

  test('a second Delivery at a later time is stored (delivered_at tells only the first), counted nowhere', () => {
    const delivered = activity({ current_status: 'delivered', delivered_at: '2030-01-01T00:00:05.000Z', timeline: [] });
    const r = applyDeliveryEvent(delivered, event('delivery', '2030-01-01T00:00:09.000Z'), NOW);
    expect(r.changes.timeline).toEqual([expect.objectContaining({ event_type: 'delivered', event_timestamp: '2030-01-01T00:00:09.000Z' })]);
    expect(r.counters).toEqual([]);
    expect(r.campaignCounters).toEqual([]);
  });

  test('an earlier Delivery arriving late takes delivered_at, and the later one is stored with the id it was shown with', () => {
    const delivered = activity({ current_status: 'delivered', delivered_at: '2030-01-01T00:00:09.000Z', timeline: [] });
    const shownBefore = fullTimeline(delivered).find((e) => e.event_type === 'delivered')!;
    const r = applyDeliveryEvent(delivered, event('delivery', '2030-01-01T00:00:05.000Z'), NOW);
    expect(r.changes.delivered_at).toBe('2030-01-01T00:00:05.000Z');
    expect(r.changes.timeline).toEqual([shownBefore]);
    const shown = fullTimeline({ ...delivered, ...r.changes } as Activity).filter((e) => e.event_type === 'delivered');
    expect(shown.map((e) => e.event_timestamp).sort()).toEqual(['2030-01-01T00:00:05.000Z', '2030-01-01T00:00:09.000Z']);
  });

  test('a Send event after the worker recorded sent_at adds nothing and publishes nothing', () => {
    const sent = activity({ sent_at: '2030-01-01T00:00:01.000Z', timeline: [] });
    const r = applyDeliveryEvent(sent, event('send', '2030-01-01T00:00:01.500Z'), NOW);
    expect(r.changes).toEqual({});
    expect(r.webhook).toBeUndefined();
    expect(r.counters).toEqual([]);
  });

  test('a Send event first sets sent_at and stores no entry (sent_at tells it)', () => {
    const queued = activity({ current_status: 'queued', message_id: undefined, timeline: [] });
    const r = applyDeliveryEvent(queued, event('send', '2030-01-01T00:00:01.000Z'), NOW);
    expect(r.changes).toMatchObject({ current_status: 'sent', sent_at: '2030-01-01T00:00:01.000Z' });
    expect(r.changes.timeline).toBeUndefined();
    expect(r.webhook).toBe('send');
  });

  test('a Send event seen again after it set sent_at itself announces email.send again, at the same time, and changes nothing', () => {
    const recorded = activity({ sent_at: '2030-01-01T00:00:01.000Z', timeline: [] });
    const r = applyDeliveryEvent(recorded, event('send', '2030-01-01T00:00:01.000Z'), NOW);
    expect(r.changes).toEqual({});
    expect(r.counters).toEqual([]);
    expect(r.webhook).toBe('send');
  });

  test('bounced_at keeps the earliest of two bounces', () => {
    const r = applyDeliveryEvent(activity({ current_status: 'bounced', bounced_at: '2030-01-01T00:00:09.000Z' }), bounce('2030-01-01T00:00:07.000Z'), NOW);
    expect(r.changes.bounced_at).toBe('2030-01-01T00:00:07.000Z');
  });
});

describe('Opens and clicks', () => {
  test('the first open sets opened_first_at and counts a unique open; a later one neither', () => {
    const first = applyDeliveryEvent(activity(), event('open', '2030-01-01T05:00:00.000Z', { open: { userAgent: 'UA', ipAddress: '1.2.3.4' } }), NOW);
    expect(first.changes.opened_first_at).toBe('2030-01-01T05:00:00.000Z');
    expect(first.counters).toEqual(['unique_opens']);
    expect(first.engagement).toBe(true);
    expect(first.changes.timeline).toBeUndefined();
    expect(first.timelineEvent).toMatchObject({ event_type: 'open', user_agent: 'UA', ip_address: '1.2.3.4' });
    const later = applyDeliveryEvent(activity({ opened_first_at: '2030-01-01T05:00:00.000Z' }), event('open', '2030-01-01T06:00:00.000Z'), NOW);
    expect(later.changes.opened_first_at).toBeUndefined();
    expect(later.counters).toEqual([]);
  });

  test('an earlier open arriving late moves opened_first_at back but counts nothing', () => {
    const r = applyDeliveryEvent(activity({ opened_first_at: '2030-01-01T05:00:00.000Z' }), event('open', '2030-01-01T04:00:00.000Z'), NOW);
    expect(r.changes.opened_first_at).toBe('2030-01-01T04:00:00.000Z');
    expect(r.counters).toEqual([]);
  });

  test('two clicks on different links at the same instant are two events', () => {
    const a = applyDeliveryEvent(activity(), event('click', '2030-01-01T05:00:00.000Z', { click: { link: 'https://a.example' } }), NOW);
    const b = applyDeliveryEvent(activity(), event('click', '2030-01-01T05:00:00.000Z', { click: { link: 'https://b.example' } }), NOW);
    expect(a.timelineEvent?.id).not.toBe(b.timelineEvent?.id);
    expect(a.timelineEvent?.url_clicked).toBe('https://a.example');
  });

  test('test-mode activity is never counted', () => {
    expect(applyDeliveryEvent(activity({ is_test: true }), event('delivery', '2030-01-01T00:00:05.000Z'), NOW).counters).toEqual([]);
  });
});

describe('Failures decided by SES', () => {
  test('a Reject before delivery fails the send: rejected, permanent', () => {
    const r = applyDeliveryEvent(activity(), event('reject', '2030-01-01T00:00:02.000Z', { reject: { reason: 'Bad content' } }), NOW);
    expect(r.status).toBe('failed');
    expect(r.failure).toEqual({ error_code: 'rejected', error_message: 'Rejected by the provider: Bad content', permanent: true });
    expect(r.webhook).toBe('reject');
  });

  test('a Send event for a record the worker already marked sent adds nothing', () => {
    const r = applyDeliveryEvent(activity(), event('send', '2030-01-01T00:00:01.000Z'), NOW);
    expect(r.timelineEvent).toBeUndefined();
    expect(r.webhook).toBeUndefined();
  });

  test('a Send event for a record a crash left queued records it sent, with the message id', () => {
    const r = applyDeliveryEvent(activity({ current_status: 'queued', message_id: undefined, timeline: [] }), event('send', '2030-01-01T00:00:01.000Z'), NOW);
    expect(r.changes).toMatchObject({ current_status: 'sent', message_id: 'm1', sent_at: '2030-01-01T00:00:01.000Z' });
  });
});

describe('eventId', () => {
  test('is uuid-shaped and stable for a key', () => {
    expect(eventId('k')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventId('k')).toBe(eventId('k'));
    expect(eventId('k')).not.toBe(eventId('j'));
  });
});

describe('campaign counters: once per mail, by the event that made the transition (issue 17, item 7)', () => {
  const open = (t: string, machine: boolean) => event('open', t, { open: { userAgent: machine ? 'Mozilla/5.0' : 'Thunderbird', machine } });

  test('a Delivery that moves the mail counts `delivered`; a repeated one (already delivered) does not', () => {
    expect(applyDeliveryEvent(activity(), event('delivery', '2030-01-01T00:00:05.000Z'), NOW).campaignCounters).toEqual(['delivered']);
    expect(applyDeliveryEvent(activity({ current_status: 'delivered' }), event('delivery', '2030-01-01T00:00:06.000Z'), NOW).campaignCounters).toEqual([]);
  });

  test('the same Delivery seen twice is a duplicate and counts nothing', () => {
    const first = event('delivery', '2030-01-01T00:00:05.000Z');
    const recorded = activity({ timeline: [{ id: eventId(first.dedupeKey), event_type: 'delivered', event_timestamp: first.timestamp, created_at: NOW }] });
    const again = applyDeliveryEvent(recorded, first, NOW);
    expect(again.duplicate).toBe(true);
    expect(again.campaignCounters).toEqual([]);
  });

  test('a Permanent bounce counts `hard_bounced`, a Transient one `soft_bounced`, a second bounce of the mail nothing', () => {
    expect(applyDeliveryEvent(activity(), bounce('2030-01-01T00:00:05.000Z'), NOW).campaignCounters).toEqual(['hard_bounced']);
    expect(applyDeliveryEvent(activity(), bounce('2030-01-01T00:00:05.000Z', 'Transient', 'MailboxFull'), NOW).campaignCounters).toEqual(['soft_bounced']);
    expect(applyDeliveryEvent(activity({ current_status: 'bounced' }), bounce('2030-01-01T00:00:09.000Z'), NOW).campaignCounters).toEqual([]);
  });

  test('a complaint counts `complained` once', () => {
    expect(applyDeliveryEvent(activity({ current_status: 'delivered' }), event('complaint', '2030-01-01T00:01:00.000Z'), NOW).campaignCounters).toEqual(['complained']);
    expect(applyDeliveryEvent(activity({ current_status: 'complained' }), event('complaint', '2030-01-01T00:02:00.000Z'), NOW).campaignCounters).toEqual([]);
  });

  test("the first human open counts `opened` and sets human_opened_at in the open's own write", () => {
    const r = applyDeliveryEvent(activity(), open('2030-01-01T01:00:00.000Z', false), NOW);
    expect(r.campaignCounters).toEqual(['opened']);
    expect(r.changes).toMatchObject({ opened_first_at: '2030-01-01T01:00:00.000Z', human_opened_at: '2030-01-01T01:00:00.000Z' });
    const later = applyDeliveryEvent(activity({ opened_first_at: '2030-01-01T01:00:00.000Z', human_opened_at: '2030-01-01T01:00:00.000Z' }), open('2030-01-01T02:00:00.000Z', false), NOW);
    expect(later.campaignCounters).toEqual([]);
    expect(later.changes).toEqual({});
  });

  test('a machine open counts `machine_opened`, leaves human_opened_at unset, and is not an open of the campaign', () => {
    const r = applyDeliveryEvent(activity(), open('2030-01-01T00:00:02.000Z', true), NOW);
    expect(r.campaignCounters).toEqual(['machine_opened']);
    expect(r.changes.human_opened_at).toBeUndefined();
    expect(r.changes.machine_opened_at).toBe('2030-01-01T00:00:02.000Z');
    const human = applyDeliveryEvent(activity({ opened_first_at: '2030-01-01T00:00:02.000Z', machine_opened_at: '2030-01-01T00:00:02.000Z' }), open('2030-01-01T03:00:00.000Z', false), NOW);
    expect(human.campaignCounters).toEqual(['opened']);
    expect(human.changes.human_opened_at).toBe('2030-01-01T03:00:00.000Z');
  });

  test('the first click counts `clicked`; later clicks do not', () => {
    const click = (t: string) => event('click', t, { click: { link: 'https://example.com/a' } });
    expect(applyDeliveryEvent(activity(), click('2030-01-01T01:00:00.000Z'), NOW).campaignCounters).toEqual(['clicked']);
    expect(applyDeliveryEvent(activity({ clicked_first_at: '2030-01-01T01:00:00.000Z' }), click('2030-01-01T02:00:00.000Z'), NOW).campaignCounters).toEqual([]);
  });
});

describe('The project\'s hourly counters (GET /v1/stats): test mail too, each mail once', () => {
  test('a first Delivery counts as delivered even when a Complaint moved the mail on first; a second does not', () => {
    const late = applyDeliveryEvent(activity({ current_status: 'complained' }), event('delivery', '2030-01-01T00:00:05.000Z'), NOW);
    expect(late.projectCounters).toEqual(['delivered']);
    expect(late.counters).toEqual([]);
    const again = applyDeliveryEvent(activity({ current_status: 'delivered', delivered_at: '2030-01-01T00:00:05.000Z' }), event('delivery', '2030-01-01T00:00:09.000Z'), NOW);
    expect(again.projectCounters).toEqual([]);
  });

  test('bounces apart by type, complaints, first opens and clicks, rejects as failed', () => {
    expect(applyDeliveryEvent(activity(), bounce('2030-01-01T00:00:05.000Z'), NOW).projectCounters).toEqual(['bounced']);
    expect(applyDeliveryEvent(activity(), bounce('2030-01-01T00:00:05.000Z', 'Transient', 'MailboxFull'), NOW).projectCounters).toEqual(['bounced_transient']);
    expect(applyDeliveryEvent(activity({ current_status: 'delivered' }), event('complaint', '2030-01-01T01:00:00.000Z'), NOW).projectCounters).toEqual(['complained']);
    expect(applyDeliveryEvent(activity(), event('open', '2030-01-01T01:00:00.000Z', { open: {} }), NOW).projectCounters).toEqual(['opened']);
    expect(applyDeliveryEvent(activity({ opened_first_at: '2030-01-01T00:30:00.000Z' }), event('open', '2030-01-01T01:00:00.000Z', { open: {} }), NOW).projectCounters).toEqual([]);
    expect(applyDeliveryEvent(activity(), event('click', '2030-01-01T01:00:00.000Z', { click: { link: 'https://example.com/a' } }), NOW).projectCounters).toEqual(['clicked']);
    expect(applyDeliveryEvent(activity(), event('reject', '2030-01-01T00:00:02.000Z', { reject: { reason: 'Bad content' } }), NOW).projectCounters).toEqual(['failed']);
  });

  test('a test mail is counted there (kept apart by mode), not in the live daily counters', () => {
    const r = applyDeliveryEvent(activity({ is_test: true }), bounce('2030-01-01T00:00:05.000Z'), NOW);
    expect(r.projectCounters).toEqual(['bounced']);
    expect(r.counters).toEqual([]);
  });
});
