import { AppError } from '../../../../shared/errors';
import {
  isTimeZone,
  parseCreateProject,
  parseDomainOnboarding,
  parseProjectPatch,
  parseSenderCreation,
} from '../../../../shared/partner/project-request';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
  throw new Error('accepted');
}

describe('POST /v1/partner/projects body', () => {
  test('only a name is needed; it is trimmed', () => {
    expect(parseCreateProject({ name: '  Acme  ' })).toEqual({ name: 'Acme', timezone: undefined, country: undefined });
  });
  test.each([[{}], [{ name: '' }], [{ name: '   ' }], [{ name: 42 }]])('%j is MISSING_NAME', (body) => {
    expect(codeOf(() => parseCreateProject(body))).toBe('MISSING_NAME');
  });
  test('domain and sender come both or neither, and the sender is on the domain', () => {
    expect(codeOf(() => parseCreateProject({ name: 'A', domain: 'a.com' }))).toBe('SENDER_REQUIRED_FOR_DOMAIN');
    expect(codeOf(() => parseCreateProject({ name: 'A', sender: { name: 'S', email: 's@a.com' } }))).toBe('DOMAIN_REQUIRED_FOR_SENDER');
    expect(codeOf(() => parseCreateProject({ name: 'A', domain: 'a.com', sender: { name: 'S', email: 's@b.com' } }))).toBe('SENDER_DOMAIN_MISMATCH');
    expect(parseCreateProject({ name: 'A', domain: 'A.com', sender: { name: 'S', email: 'S@a.com' } })).toMatchObject({ domain: 'a.com', sender: { name: 'S', email: 's@a.com' } });
  });
  test('timezone must be an IANA name; country two letters', () => {
    expect(codeOf(() => parseCreateProject({ name: 'A', timezone: 'Nowhere/Land' }))).toBe('INVALID_TIMEZONE');
    expect(codeOf(() => parseCreateProject({ name: 'A', timezone: '+09:00' }))).toBe('INVALID_TIMEZONE');
    expect(codeOf(() => parseCreateProject({ name: 'A', country: 'France' }))).toBe('INVALID_COUNTRY');
    expect(parseCreateProject({ name: 'A', timezone: 'America/New_York', country: 'us' })).toMatchObject({ timezone: 'America/New_York', country: 'US' });
  });
  test.each(['UTC', 'Europe/Paris', 'Asia/Kolkata'])('%s is a time zone', (tz) => expect(isTimeZone(tz)).toBe(true));
});

describe('Domain onboarding and sender bodies', () => {
  test('the domains POST needs a nested sender, not loose fields', () => {
    expect(codeOf(() => parseDomainOnboarding({ domain: 'a.com', name: 'S', email: 's@a.com' }))).toBe('SENDER_REQUIRED_FOR_DOMAIN');
    expect(parseDomainOnboarding({ domain: 'a.com', sender: { name: 'S', email: 's@a.com' } })).toEqual({ domain: 'a.com', sender: { name: 'S', email: 's@a.com' } });
  });
  test('senders take name and email loose or nested, and a boolean allow_unauthenticated', () => {
    expect(parseSenderCreation({ name: 'S', email: 'S@a.com' })).toEqual({ name: 'S', email: 's@a.com', allowUnauthenticated: false });
    expect(parseSenderCreation({ sender: { name: 'S', email: 's@a.com' }, allow_unauthenticated: true })).toMatchObject({ allowUnauthenticated: true });
    expect(codeOf(() => parseSenderCreation({ name: 'S' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseSenderCreation({ name: 'S', email: 's@a.com', allow_unauthenticated: 'yes' }))).toBe('INVALID_INPUT');
  });
});

describe('PATCH /v1/partner/projects/:id body', () => {
  test('keeps only recognised, sent fields', () => {
    expect(parseProjectPatch({ name: 'New', color: 'red', webhook_url: 'https://x.example.com/h' })).toEqual({ name: 'New', webhook_url: 'https://x.example.com/h' });
  });
  test('null or empty clears a webhook URL', () => {
    expect(parseProjectPatch({ webhook_url_dev: null, inbound_webhook_url: '' })).toEqual({ webhook_url_dev: null, inbound_webhook_url: null });
  });
  test('an empty timezone or country is refused (null clears them)', () => {
    expect(codeOf(() => parseProjectPatch({ timezone: '' }))).toBe('INVALID_TIMEZONE');
    expect(codeOf(() => parseProjectPatch({ country: '' }))).toBe('INVALID_COUNTRY');
    expect(parseProjectPatch({ timezone: null, country: null })).toEqual({ timezone: null, country: null });
  });
  test('no recognised field is EMPTY_PATCH', () => {
    expect(codeOf(() => parseProjectPatch({}))).toBe('EMPTY_PATCH');
    expect(codeOf(() => parseProjectPatch({ slug: 'mine' }))).toBe('EMPTY_PATCH');
  });
  test('environment names follow the environment pattern and map to URLs', () => {
    expect(parseProjectPatch({ inbound_webhook_environments: { 'staging-1': 'https://h.example.com/s' } })).toEqual({
      inbound_webhook_environments: { 'staging-1': 'https://h.example.com/s' },
    });
    expect(codeOf(() => parseProjectPatch({ inbound_webhook_environments: { 'bad env': 'https://h.example.com' } }))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseProjectPatch({ inbound_webhook_environments: { prod: 'not a url' } }))).toBe('INVALID_INPUT');
  });
});
