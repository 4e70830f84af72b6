import { nextDomainCheckAt, nextSenderCheckAt } from '../../../../shared/identities/domains/recheck-schedule';

const created = '2026-01-01T00:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(created) + minutes * 60_000);
const gap = (minutes: number) => (Date.parse(nextDomainCheckAt(created, at(minutes)) as string) - at(minutes).getTime()) / 60_000;

describe('Pending domain re-checks: frequent on day one, then spaced', () => {
  test('every 5 minutes in the first hour', () => {
    expect(gap(0)).toBe(5);
    expect(gap(59)).toBe(5);
  });
  test('hourly for the rest of the first day', () => {
    expect(gap(60)).toBe(60);
    expect(gap(24 * 60 - 1)).toBe(60);
  });
  test('every 6 hours until 72 hours, then no more', () => {
    expect(gap(24 * 60)).toBe(360);
    expect(gap(72 * 60 - 1)).toBe(360);
    expect(nextDomainCheckAt(created, at(72 * 60))).toBeUndefined();
  });
});

describe('Magic-link sender checks', () => {
  test('every 2 minutes for the 24 hours a link is valid', () => {
    expect(Date.parse(nextSenderCheckAt(created, at(10)) as string) - at(10).getTime()).toBe(120_000);
    expect(nextSenderCheckAt(created, at(24 * 60))).toBeUndefined();
  });
});
