import { AppError } from '../../../../shared/platform/core/errors';
import { parseRequest } from '../../../../shared/platform/core/validate';
import {
  createProjectBodySchema,
  invalidInput,
  isTimeZone,
  keyRotationBodySchema,
  orEmptyBody,
  statsQuerySchema,
  parseCreateProject,
  parseDomainOnboarding,
  parseProjectPatch,
  parseSenderCreation,
} from '../../../../shared/tenancy/partner/project-request';

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

/** The refusal of a partner route's body or query: its status, code and message. */
function refusalOf(fn: () => unknown): { status: number; code?: string; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const { status, code, message } = error as AppError;
    return { status, code, message };
  }
  throw new Error('accepted');
}

describe('a partner route without a body', () => {
  test('reads as an empty object, refused for what it lacks', () => {
    expect(refusalOf(() => parseRequest(orEmptyBody(createProjectBodySchema), undefined, invalidInput))).toEqual({ status: 400, code: 'MISSING_NAME', message: 'name is required' });
  });
});

describe('POST /v1/partner/projects/{id}/api-key/rotate body', () => {
  test('mode is live unless it says test; none, null or no body at all is live', () => {
    expect(parseRequest(orEmptyBody(keyRotationBodySchema), undefined, invalidInput).mode).toBeUndefined();
    expect(parseRequest(keyRotationBodySchema, { mode: null }, invalidInput).mode).toBeNull();
    expect(parseRequest(keyRotationBodySchema, { mode: 'test' }, invalidInput).mode).toBe('test');
  });
  test.each(['LIVE', 'prod', 5])('mode %j is 400 INVALID_INPUT', (mode) => {
    expect(refusalOf(() => parseRequest(keyRotationBodySchema, { mode }, invalidInput))).toEqual({ status: 400, code: 'INVALID_INPUT', message: 'mode must be live or test' });
  });
});

describe('GET /v1/partner/projects/{id}/stats query', () => {
  test('since and until are ISO 8601 dates; empty reads as absent', () => {
    expect(parseRequest(statsQuerySchema, { since: '2026-11-01', until: '2026-11-26T12:00:00Z' }, invalidInput)).toEqual({ since: '2026-11-01', until: '2026-11-26T12:00:00Z' });
    expect(parseRequest(statsQuerySchema, { since: '' }, invalidInput)).toEqual({ since: '' });
  });
  test('a date that does not parse is 400 INVALID_INPUT, until checked before since', () => {
    expect(refusalOf(() => parseRequest(statsQuerySchema, { since: 'yesterday' }, invalidInput))).toEqual({ status: 400, code: 'INVALID_INPUT', message: 'since must be an ISO 8601 date' });
    expect(refusalOf(() => parseRequest(statsQuerySchema, { since: 'yesterday', until: 'soon' }, invalidInput)).message).toBe('until must be an ISO 8601 date');
  });
});
