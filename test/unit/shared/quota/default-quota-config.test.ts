import { config, refreshConfig } from '../../../../shared/platform/core/config';

/** DEFAULT_MONTHLY_QUOTA as read from the environment at cold start. */
describe('config: DEFAULT_MONTHLY_QUOTA', () => {
  const saved = { ...process.env };
  const base = {
    TABLE_NAME: 'mailroom',
    SEND_QUEUE_URL: 'http://localhost:9324/queue/send',
    EVENTS_QUEUE_URL: 'http://localhost:9324/queue/events',
    PAYLOAD_BUCKET: 'bucket',
    TOKEN_SECRET: 'a-secret-of-at-least-16',
  };
  const withQuota = (value?: string) => {
    process.env = { ...base };
    refreshConfig({ DEFAULT_MONTHLY_QUOTA: value });
    return config();
  };
  afterAll(() => {
    process.env = saved;
    refreshConfig();
  });

  it('is unset (unlimited) when absent or empty', () => {
    expect(withQuota().DEFAULT_MONTHLY_QUOTA).toBeUndefined();
    expect(withQuota('').DEFAULT_MONTHLY_QUOTA).toBeUndefined();
  });

  it('reads a whole number, 0 included', () => {
    expect(withQuota('10000').DEFAULT_MONTHLY_QUOTA).toBe(10000);
    expect(withQuota('0').DEFAULT_MONTHLY_QUOTA).toBe(0);
  });

  it.each(['-1', '2.5', 'unlimited'])('refuses %p, naming the variable', (value) => {
    expect(() => withQuota(value).DEFAULT_MONTHLY_QUOTA).toThrow(/DEFAULT_MONTHLY_QUOTA/);
  });
});
