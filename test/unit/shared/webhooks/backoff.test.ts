import { refreshConfig } from '../../../../shared/platform/core/config';
import { DEFAULT_BACKOFF_SECONDS, backoffSchedule, backoffSeconds, parseWebhookJob } from '../../../../shared/notifications/webhooks/deliver-webhook';

describe('backoff', () => {
  test('the default schedule: 30 s, 2 min, 10 min, 30 min after attempts 1 to 4', () => {
    expect(DEFAULT_BACKOFF_SECONDS).toEqual([30, 120, 600, 1800]);
    expect([1, 2, 3, 4].map((n) => backoffSeconds(n, DEFAULT_BACKOFF_SECONDS))).toEqual([30, 120, 600, 1800]);
  });

  test('beyond the list the last interval repeats; below 1 counts as the first', () => {
    expect(backoffSeconds(7, DEFAULT_BACKOFF_SECONDS)).toBe(1800);
    expect(backoffSeconds(0, DEFAULT_BACKOFF_SECONDS)).toBe(30);
  });

  test('WEBHOOK_BACKOFF_SECONDS overrides it with a comma list', () => {
    expect(backoffSchedule({ WEBHOOK_BACKOFF_SECONDS: '1, 1,2,3' })).toEqual([1, 1, 2, 3]);
    expect(backoffSchedule({ WEBHOOK_BACKOFF_SECONDS: '0' })).toEqual([0]);
    expect(backoffSchedule({})).toBe(DEFAULT_BACKOFF_SECONDS);
  });

  test('an invalid override falls back to the default; values are capped at 12 hours', () => {
    expect(backoffSchedule({ WEBHOOK_BACKOFF_SECONDS: '1,x' })).toBe(DEFAULT_BACKOFF_SECONDS);
    expect(backoffSchedule({ WEBHOOK_BACKOFF_SECONDS: '-1' })).toBe(DEFAULT_BACKOFF_SECONDS);
    expect(backoffSchedule({ WEBHOOK_BACKOFF_SECONDS: '99999' })).toEqual([43200]);
  });

  test('the configuration is read at each use, so a refresh takes effect at once', () => {
    const before = process.env.WEBHOOK_BACKOFF_SECONDS;
    refreshConfig({ WEBHOOK_BACKOFF_SECONDS: '5,6' });
    try {
      expect(backoffSeconds(2)).toBe(6);
    } finally {
      refreshConfig({ WEBHOOK_BACKOFF_SECONDS: before });
    }
  });
});

describe('parseWebhookJob', () => {
  const job = { v: 1, delivery_id: 'msg_1', project_id: 'p', url: 'https://h.example/x', slot: 'live', max_attempts: 5, event: { event: 'email.send', data: {} } };

  test('reads a job', () => {
    expect(parseWebhookJob(JSON.stringify(job))).toEqual(job);
  });

  test.each([
    ['not JSON', '{'],
    ['null', 'null'],
    ['another version', JSON.stringify({ ...job, v: 2 })],
    ['no url', JSON.stringify({ ...job, url: undefined })],
    ['an unknown slot', JSON.stringify({ ...job, slot: 'staging' })],
    ['no event name', JSON.stringify({ ...job, event: { data: {} } })],
    ['zero attempts', JSON.stringify({ ...job, max_attempts: 0 })],
  ])('refuses %s', (_, body) => {
    expect(() => parseWebhookJob(body)).toThrow();
  });
});
