import { nextTlsCheck, tlsAfter } from '../../../../shared/mail-pipeline/tracking/tracking-tls';

const REQUESTED = '2026-03-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(REQUESTED) + minutes * 60_000);

describe('the HTTPS re-check rhythm of a tracking domain', () => {
  test('every 2 minutes for the first half hour after the tenant was requested, then every 30 minutes', () => {
    expect(nextTlsCheck(REQUESTED, at(0))).toBe(at(2).toISOString());
    expect(nextTlsCheck(REQUESTED, at(29))).toBe(at(31).toISOString());
    expect(nextTlsCheck(REQUESTED, at(30))).toBe(at(60).toISOString());
  });
});

describe('the stored HTTPS state after an edge answer', () => {
  test('the first answer records when the tenant was requested and schedules the next check', () => {
    expect(tlsAfter(undefined, { status: 'provisioning', detail: 'certificate pending-validation' }, at(0))).toEqual({
      status: 'provisioning',
      detail: 'certificate pending-validation',
      requested_at: REQUESTED,
      checked_at: REQUESTED,
      next_check_at: at(2).toISOString(),
    });
  });

  test('active and failed are final: no next check, and the request time is kept', () => {
    const previous = tlsAfter(undefined, { status: 'provisioning' }, at(0));
    expect(tlsAfter(previous, { status: 'active' }, at(40))).toEqual({ status: 'active', requested_at: REQUESTED, checked_at: at(40).toISOString(), next_check_at: null });
    expect(tlsAfter(previous, { status: 'failed', detail: 'certificate failed' }, at(40))).toMatchObject({ status: 'failed', next_check_at: null });
  });
});
