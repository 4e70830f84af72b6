import { canonicalJson, isDryRun, requestFingerprint } from '../../../../shared/platform/idempotency/request-fingerprint';

describe('canonicalJson', () => {
  test('sorts object keys at every depth', () => {
    const a = { subject: 'Hi', recipient: ['a@example.com'], data: { b: 1, a: { y: true, x: null } } };
    const b = { data: { a: { x: null, y: true }, b: 1 }, recipient: ['a@example.com'], subject: 'Hi' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"data":{"a":{"x":null,"y":true},"b":1},"recipient":["a@example.com"],"subject":"Hi"}');
  });

  test('keeps array order, which is meaningful', () => {
    expect(canonicalJson({ recipient: ['a@example.com', 'b@example.com'] })).not.toBe(canonicalJson({ recipient: ['b@example.com', 'a@example.com'] }));
  });

  test('escapes strings as JSON does', () => {
    expect(canonicalJson({ 'k"': 'line\nbreak' })).toBe('{"k\\"":"line\\nbreak"}');
  });

  test('tells an absent body from null and from an empty object', () => {
    expect(new Set([canonicalJson(undefined), canonicalJson(null), canonicalJson({})]).size).toBe(3);
  });
});

describe('requestFingerprint', () => {
  const base = { routeKey: 'POST /send-email', mode: 'live', body: { recipient: 'a@example.com', subject: 'Hi', html: '<p>Hi</p>' } };

  test('is stable across key order', () => {
    const reordered = { ...base, body: { html: '<p>Hi</p>', subject: 'Hi', recipient: 'a@example.com' } };
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(base));
    expect(requestFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  test.each([
    ['another body', { body: { ...base.body, subject: 'Hello' } }],
    ['another route', { routeKey: 'POST /v1/send-batch' }],
    ['another key mode (test key after live key)', { mode: 'test' }],
  ])('changes with %s', (_name, change) => {
    expect(requestFingerprint({ ...base, ...change })).not.toBe(requestFingerprint(base));
  });
});

describe('isDryRun', () => {
  test.each([
    [{ dry_run: true }, true],
    [{ dry_run: false }, false],
    [{ dry_run: 'true' }, false],
    [{}, false],
    [[{ dry_run: true }], false],
    [null, false],
    [undefined, false],
  ])('%j -> %s', (body, expected) => {
    expect(isDryRun(body)).toBe(expected);
  });
});
