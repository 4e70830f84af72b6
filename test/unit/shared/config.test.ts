import { config, refreshConfig } from '../../../shared/platform/core/config';

/** Each variable is validated on first use against its own schema (shared/platform/core/config.ts). */
describe('config: validation per variable', () => {
  const saved = { ...process.env };
  const withEnv = (env: Record<string, string>) => {
    process.env = { ...env };
    refreshConfig();
    return config();
  };
  afterAll(() => {
    process.env = saved;
    refreshConfig();
  });

  it('names a missing required variable', () => {
    expect(() => withEnv({}).TABLE_NAME).toThrow('Invalid or missing environment variables: TABLE_NAME');
  });

  it('applies the defaults of unset variables', () => {
    const cfg = withEnv({});
    expect(cfg.SERVICE_NAME).toBe('Mailroom');
    expect(cfg.ALLOW_PRIVATE_URLS).toBe('false');
    expect(cfg.ACTIVITY_RETENTION_DAYS).toBe(90);
    expect(cfg.DOMAIN_CONNECT_SCHEME).toBe('https');
    expect(cfg.LOG_LEVEL).toBe('info');
    expect(cfg.SES_CONFIGURATION_SET).toBeUndefined();
  });

  it('reads valid values as given, numbers coerced', () => {
    const cfg = withEnv({ TABLE_NAME: 'mailroom', SEND_QUEUE_URL: 'http://localhost:9324/q/send', ACTIVITY_RETENTION_DAYS: '30', LOG_LEVEL: 'warn', TRACKING_HOST: 'track.example.com' });
    expect(cfg.TABLE_NAME).toBe('mailroom');
    expect(cfg.SEND_QUEUE_URL).toBe('http://localhost:9324/q/send');
    expect(cfg.ACTIVITY_RETENTION_DAYS).toBe(30);
    expect(cfg.LOG_LEVEL).toBe('warn');
    expect(cfg.TRACKING_HOST).toBe('track.example.com');
  });

  it('reads an empty TRACKING_HOST as unset', () => {
    expect(withEnv({ TRACKING_HOST: '' }).TRACKING_HOST).toBeUndefined();
  });

  it.each([
    ['TABLE_NAME', 'ab'],
    ['SEND_QUEUE_URL', 'not a url'],
    ['TOKEN_SECRET', 'short'],
    ['ALLOW_PRIVATE_URLS', 'yes'],
    ['ACTIVITY_RETENTION_DAYS', '0'],
    ['ACTIVITY_RETENTION_DAYS', '1.5'],
    ['ACTIVITY_RETENTION_DAYS', 'ninety'],
    ['LOG_LEVEL', 'verbose'],
    ['TRACKING_HOST', 'not a host'],
    ['TRACKING_BASE_URL', 'example.com/t'],
  ] as const)('refuses %s=%p, naming the variable', (key, value) => {
    expect(() => withEnv({ [key]: value })[key]).toThrow(`Invalid or missing environment variables: ${key}`);
  });
});
