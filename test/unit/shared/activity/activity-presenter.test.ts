import type { Activity, TimelineEvent } from '../../../../shared/mail-pipeline/activity/activity';
import { batchActivityId, newBatchId } from '../../../../shared/mail-pipeline/batches/batch-ids';
import { presentActivity } from '../../../../shared/mail-pipeline/activity/activity-presenter';

const minimal = (): Activity => ({
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  project_id: 'c9bf9e57-1685-4c89-bafb-ff5af830be8a',
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T10:00:00.000Z',
  email_type: 'transactional',
  subject: 'Welcome',
  sender_email: 'hello@example.com',
  recipient_primary: 'user@example.com',
  recipient_count: 1,
  current_status: 'queued',
  is_test: false,
});

const event = (id: string, type: string, at: string): TimelineEvent => ({
  id,
  event_type: type,
  event_timestamp: at,
  created_at: '2025-03-01T12:00:00.000Z',
});

/** Part 2, "Email activity record", minus the two fields that only come with `include`. */
const PART2_FIELDS = [
  'id',
  'created_at',
  'email_type',
  'campaign_id',
  'automation_run_id',
  'template_id',
  'message_id',
  'subject',
  'sender_email',
  'sender_name',
  'recipient_primary',
  'current_status',
  'delivered_at',
  'bounced_at',
  'complained_at',
  'opened_first_at',
  'clicked_first_at',
];

const NULLABLE = [
  'campaign_id',
  'automation_run_id',
  'template_id',
  'message_id',
  'sender_name',
  'delivered_at',
  'bounced_at',
  'complained_at',
  'opened_first_at',
  'clicked_first_at',
];

/** Part 2, "Activity event". */
const EVENT_FIELDS = [
  'id',
  'event_type',
  'event_timestamp',
  'user_agent',
  'ip_address',
  'url_clicked',
  'bounce_type',
  'bounce_subtype',
  'complaint_feedback_type',
  'created_at',
];

describe('presentActivity (part 2, email activity record)', () => {
  test('every part-2 field is present on a minimal record', () => {
    const out = presentActivity(minimal());
    for (const field of PART2_FIELDS) expect(out).toHaveProperty(field);
  });

  test.each(NULLABLE)('%s is null (not missing) when absent', (field) => {
    const out = presentActivity(minimal());
    expect(out[field]).toBeNull();
  });

  test('stored values are shown as stored', () => {
    const out = presentActivity({
      ...minimal(),
      campaign_id: 'camp-1',
      automation_run_id: 'run-1',
      template_id: 'tpl-1',
      message_id: 'ses-123',
      sender_name: 'Hello Team',
      current_status: 'delivered',
      delivered_at: '2025-03-01T10:00:05.000Z',
      bounced_at: '2025-03-01T10:00:06.000Z',
      complained_at: '2025-03-01T10:00:07.000Z',
      opened_first_at: '2025-03-01T10:01:00.000Z',
      clicked_first_at: '2025-03-01T10:02:00.000Z',
    });
    expect(out).toMatchObject({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      created_at: '2025-03-01T10:00:00.000Z',
      email_type: 'transactional',
      campaign_id: 'camp-1',
      automation_run_id: 'run-1',
      template_id: 'tpl-1',
      message_id: 'ses-123',
      subject: 'Welcome',
      sender_email: 'hello@example.com',
      sender_name: 'Hello Team',
      recipient_primary: 'user@example.com',
      current_status: 'delivered',
      delivered_at: '2025-03-01T10:00:05.000Z',
      bounced_at: '2025-03-01T10:00:06.000Z',
      complained_at: '2025-03-01T10:00:07.000Z',
      opened_first_at: '2025-03-01T10:01:00.000Z',
      clicked_first_at: '2025-03-01T10:02:00.000Z',
    });
  });

  test('internal fields (project_id, updated_at, timeline, recipient_count) are not shown', () => {
    const out = presentActivity({ ...minimal(), timeline: [event('e1', 'sent', '2025-03-01T10:00:01.000Z')] });
    expect(out).not.toHaveProperty('project_id');
    expect(out).not.toHaveProperty('updated_at');
    expect(out).not.toHaveProperty('timeline');
    expect(out).not.toHaveProperty('recipient_count');
  });

  test('a failure is shown as error_code and error_message', () => {
    const out = presentActivity({
      ...minimal(),
      current_status: 'failed',
      failure: { error_code: 'rejected', error_message: 'Email address is blacklisted.', permanent: true },
    });
    expect(out.error_code).toBe('rejected');
    expect(out.error_message).toBe('Email address is blacklisted.');
  });

  describe('html_content only when asked (include=html)', () => {
    test('absent without the html option', () => {
      expect(presentActivity(minimal())).not.toHaveProperty('html_content');
      expect(presentActivity(minimal(), { events: true })).not.toHaveProperty('html_content');
    });

    test('present with the html given', () => {
      expect(presentActivity(minimal(), { html: '<p>Hi</p>' }).html_content).toBe('<p>Hi</p>');
    });

    test('null when asked but no body exists yet', () => {
      const out = presentActivity(minimal(), { html: null });
      expect(out).toHaveProperty('html_content');
      expect(out.html_content).toBeNull();
    });
  });

  describe('events only when asked (include=events)', () => {
    test('absent without the events option', () => {
      const out = presentActivity({ ...minimal(), timeline: [event('e1', 'sent', '2025-03-01T10:00:01.000Z')] });
      expect(out).not.toHaveProperty('events');
    });

    test('an empty array when asked and there is no timeline', () => {
      expect(presentActivity(minimal(), { events: true }).events).toEqual([]);
    });

    test('sorted ascending by event_timestamp', () => {
      const out = presentActivity(
        {
          ...minimal(),
          timeline: [
            event('e3', 'open', '2025-03-01T10:05:00.000Z'),
            event('e1', 'sent', '2025-03-01T10:00:01.000Z'),
            event('e4', 'click', '2025-03-02T08:00:00.000Z'),
            event('e2', 'delivered', '2025-03-01T10:00:04.500Z'),
          ],
        },
        { events: true },
      );
      const events = out.events as { id: string; event_timestamp: string }[];
      expect(events.map((e) => e.id)).toEqual(['e1', 'e2', 'e3', 'e4']);
    });

    test('sorting does not reorder the stored timeline', () => {
      const timeline = [event('b', 'open', '2025-03-01T10:05:00.000Z'), event('a', 'sent', '2025-03-01T10:00:00.000Z')];
      presentActivity({ ...minimal(), timeline }, { events: true });
      expect(timeline.map((e) => e.id)).toEqual(['b', 'a']);
    });

    test('every part-2 event field is present, null where unknown', () => {
      const out = presentActivity({ ...minimal(), timeline: [event('e1', 'sent', '2025-03-01T10:00:01.000Z')] }, { events: true });
      const [e] = out.events as Record<string, unknown>[];
      expect(Object.keys(e).sort()).toEqual([...EVENT_FIELDS].sort());
      expect(e).toMatchObject({
        id: 'e1',
        event_type: 'sent',
        event_timestamp: '2025-03-01T10:00:01.000Z',
        created_at: '2025-03-01T12:00:00.000Z',
        user_agent: null,
        ip_address: null,
        url_clicked: null,
        bounce_type: null,
        bounce_subtype: null,
        complaint_feedback_type: null,
      });
    });
  });
});

describe('timeline order is by time, not by string', () => {
  test('a timestamp without milliseconds sorts before a later one with them', () => {
    const out = presentActivity(
      { ...minimal(), timeline: [event('late', 'delivered', '2025-03-01T10:00:00.500Z'), event('early', 'sent', '2025-03-01T10:00:00Z')] },
      { events: true },
    );
    expect((out.events as { id: string }[]).map((e) => e.id)).toEqual(['early', 'late']);
  });
});

describe('sent and delivered are told by sent_at and delivered_at, not stored', () => {
  const delivered = (): Activity => ({ ...minimal(), current_status: 'delivered', sent_at: '2025-03-01T10:00:01.000Z', delivered_at: '2025-03-01T10:00:04.500Z' });

  test('shown as entries of the same shape, with the *_at time as event_timestamp and created_at', () => {
    const [sent, done] = presentActivity(delivered(), { events: true }).events as Record<string, unknown>[];
    expect(Object.keys(sent).sort()).toEqual([...EVENT_FIELDS].sort());
    expect(sent).toMatchObject({ event_type: 'sent', event_timestamp: '2025-03-01T10:00:01.000Z', created_at: '2025-03-01T10:00:01.000Z', bounce_type: null });
    expect(done).toMatchObject({ event_type: 'delivered', event_timestamp: '2025-03-01T10:00:04.500Z', created_at: '2025-03-01T10:00:04.500Z' });
    expect(sent.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('with the same ids on every read, different per mail and per event', () => {
    const ids = (a: Activity) => (presentActivity(a, { events: true }).events as { id: string }[]).map((e) => e.id);
    expect(ids(delivered())).toEqual(ids(delivered()));
    expect(new Set([...ids(delivered()), ...ids({ ...delivered(), id: '22222222-2222-4222-8222-222222222222' })]).size).toBe(4);
  });

  test('a record written before, whose entries are stored, shows each once', () => {
    const old = { ...delivered(), timeline: [event('s', 'sent', '2025-03-01T10:00:01.000Z'), event('d', 'delivered', '2025-03-01T10:00:04.500Z')] };
    expect((presentActivity(old, { events: true }).events as { id: string }[]).map((e) => e.id)).toEqual(['s', 'd']);
  });

  test('stored entries with details come in time order among them', () => {
    const bounced = { ...delivered(), current_status: 'bounced' as const, delivered_at: undefined, timeline: [{ ...event('b', 'bounce', '2025-03-01T10:00:03.000Z'), bounce_type: 'Permanent' }] };
    expect((presentActivity(bounced, { events: true }).events as { event_type: string }[]).map((e) => e.event_type)).toEqual(['sent', 'bounce']);
  });
});

describe('batch_id of a batch mail comes from its id (the record does not store it)', () => {
  test('a batch mail shows the batch its id names', () => {
    const batchId = newBatchId();
    expect(presentActivity({ ...minimal(), id: batchActivityId(batchId, 42) }).batch_id).toBe(batchId);
  });

  test('a single send shows none', () => {
    expect(presentActivity(minimal())).not.toHaveProperty('batch_id');
  });
});
