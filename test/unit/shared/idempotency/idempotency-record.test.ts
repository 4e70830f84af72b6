import { assessRecord, type IdempotencyRecord } from '../../../../shared/platform/idempotency/idempotency-record';

const NOW = 1_700_000_000;
const MINE = 'f'.repeat(64);
const OTHER = 'e'.repeat(64);

function record(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return { status: 'in_progress', fingerprint: MINE, token: 't-1', lease_until: NOW + 30, ttl: NOW + 3600, ...overrides };
}

const completed = (overrides: Partial<IdempotencyRecord> = {}) =>
  record({ status: 'completed', lease_until: undefined, response: { status: 200, headers: {}, body: '{}' }, ...overrides });

describe('assessRecord: what a request finds under its key', () => {
  test('no record: the key is free', () => {
    expect(assessRecord(undefined, MINE, NOW)).toBe('free');
  });

  test('a completed record of the same request is replayed', () => {
    expect(assessRecord(completed(), MINE, NOW)).toBe('replay');
  });

  test('a completed record of another request is a reuse (422)', () => {
    expect(assessRecord(completed({ fingerprint: OTHER }), MINE, NOW)).toBe('reused');
  });

  test('the same request still running is in progress (409)', () => {
    expect(assessRecord(record(), MINE, NOW)).toBe('in_progress');
  });

  test('another request still running is a reuse, not a wait', () => {
    expect(assessRecord(record({ fingerprint: OTHER }), MINE, NOW)).toBe('reused');
  });

  test('the same request whose holder\'s lease ran out is free to take over', () => {
    expect(assessRecord(record({ lease_until: NOW - 1 }), MINE, NOW)).toBe('free');
  });

  test('the lease still holds in its last second', () => {
    expect(assessRecord(record({ lease_until: NOW }), MINE, NOW)).toBe('in_progress');
  });

  test('another request does not take over a lease that ran out', () => {
    expect(assessRecord(record({ fingerprint: OTHER, lease_until: NOW - 1 }), MINE, NOW)).toBe('reused');
  });

  test.each([
    ['a completed record', completed({ ttl: NOW })],
    ['a completed record of another request', completed({ ttl: NOW - 10, fingerprint: OTHER })],
    ['an in-progress record', record({ ttl: NOW - 1, lease_until: NOW + 30 })],
  ])('%s older than 24 h (ttl reached, not yet deleted) is treated as absent', (_name, old) => {
    expect(assessRecord(old, MINE, NOW)).toBe('free');
  });
});
