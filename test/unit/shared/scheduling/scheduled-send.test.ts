import type { ActivityStatus } from '../../../../shared/mail-pipeline/activity/activity';
import { deriveScheduledStatus, presentScheduledSend, type ScheduledSend } from '../../../../shared/mail-pipeline/scheduling/scheduled-send';

const send = (overrides: Partial<ScheduledSend> = {}): ScheduledSend => ({
  id: '0b6f3c2e-8d1a-4c3e-9f00-000000000001',
  project_id: 'p-1',
  mode: 'live',
  status: 'pending',
  scheduled_for: '2030-01-01T09:00:00.000Z',
  timezone: 'Europe/Paris',
  recipient_email: 'reader@example.com',
  sender_email: 'hello@example.com',
  subject: 'Hi',
  content: { recipient: 'reader@example.com', sender: 'hello@example.com', subject: 'Hi', html: '<p>x</p>', emailType: 'transactional', customHeaders: {}, references: [] },
  email_id: '0b6f3c2e-8d1a-4c3e-9f00-0000000000e1',
  created_at: '2029-12-31T09:00:00.000Z',
  updated_at: '2029-12-31T09:00:00.000Z',
  version: 1,
  ...overrides,
});

describe('the derived status of a scheduled send (part 3)', () => {
  test.each(['pending', 'cancelled', 'failed'] as const)('a stored %s is shown as it is, whatever an activity says', (stored) => {
    expect(deriveScheduledStatus(stored)).toBe(stored);
    expect(deriveScheduledStatus(stored, { current_status: 'delivered' })).toBe(stored);
  });

  test('processing without an activity yet stays processing', () => {
    expect(deriveScheduledStatus('processing')).toBe('processing');
  });

  test.each<[ActivityStatus, string]>([
    ['queued', 'processing'],
    ['retrying', 'processing'],
    ['sent', 'sent'],
    ['delivered', 'sent'],
    ['bounced', 'sent'],
    ['complained', 'sent'],
    ['failed', 'failed'],
    ['suppressed', 'failed'],
    ['cancelled', 'failed'],
  ])('processing with an activity %s is %s', (activity, expected) => {
    expect(deriveScheduledStatus('processing', { current_status: activity })).toBe(expected);
  });
});

describe('the scheduled send resource', () => {
  test('has the fields of part 2, with email_id null while pending', () => {
    expect(presentScheduledSend(send(), 'pending')).toEqual({
      id: '0b6f3c2e-8d1a-4c3e-9f00-000000000001',
      status: 'pending',
      scheduled_for: '2030-01-01T09:00:00.000Z',
      timezone: 'Europe/Paris',
      recipient_email: 'reader@example.com',
      sender_email: 'hello@example.com',
      subject: 'Hi',
      created_at: '2029-12-31T09:00:00.000Z',
      updated_at: '2029-12-31T09:00:00.000Z',
      email_id: null,
    });
  });

  test('shows the email_id once it fired, and the given (derived) status', () => {
    const resource = presentScheduledSend(send({ status: 'processing' }), 'sent');
    expect(resource).toMatchObject({ status: 'sent', email_id: '0b6f3c2e-8d1a-4c3e-9f00-0000000000e1' });
  });

  test('shows why it failed, and a null subject for a template send without one', () => {
    const resource = presentScheduledSend(send({ status: 'failed', error: 'Template not found with ID x', subject: undefined }), 'failed');
    expect(resource).toMatchObject({ status: 'failed', error: 'Template not found with ID x', subject: null, email_id: null });
  });

  test('never exposes the content, project, mode or version', () => {
    const resource = presentScheduledSend(send(), 'pending') as Record<string, unknown>;
    for (const hidden of ['content', 'project_id', 'mode', 'version', 'claimed_by']) expect(resource).not.toHaveProperty(hidden);
  });
});
