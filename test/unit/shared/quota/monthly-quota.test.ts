import { effectiveQuota, monthOf, quotaExceededMessage } from '../../../../shared/mail-pipeline/quota/monthly-quota';

describe('monthOf: the quota period is the UTC calendar month', () => {
  it('puts the last second of November and the first of December in different months', () => {
    expect(monthOf(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(monthOf(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });

  it('follows UTC, not the local offset of the instant', () => {
    // 00:30 on 1 December in Paris is still November in UTC.
    expect(monthOf(new Date('2026-12-01T00:30:00+01:00'))).toBe('2026-11');
    expect(monthOf(new Date('2026-12-31T23:30:00-05:00'))).toBe('2027-01');
  });
});

describe('effectiveQuota: project setting, then deployment default, then unlimited', () => {
  const noDefault = { DEFAULT_MONTHLY_QUOTA: undefined };
  const withDefault = { DEFAULT_MONTHLY_QUOTA: 1000 };

  it("uses the project's own number, above or below the default", () => {
    expect(effectiveQuota({ monthly_quota: 50 }, withDefault)).toBe(50);
    expect(effectiveQuota({ monthly_quota: 5000 }, withDefault)).toBe(5000);
    expect(effectiveQuota({ monthly_quota: 50 }, noDefault)).toBe(50);
  });

  it('uses the deployment default when the project has no setting (absent or null)', () => {
    expect(effectiveQuota({}, withDefault)).toBe(1000);
    expect(effectiveQuota({ monthly_quota: null }, withDefault)).toBe(1000);
  });

  it('is unlimited (null) with neither a setting nor a default', () => {
    expect(effectiveQuota({}, noDefault)).toBeNull();
    expect(effectiveQuota({ monthly_quota: null }, noDefault)).toBeNull();
  });

  it("is unlimited for a project set to 'unlimited', even with a default", () => {
    expect(effectiveQuota({ monthly_quota: 'unlimited' }, withDefault)).toBeNull();
  });

  it('keeps 0 as a quota that blocks every send, from the project or the default', () => {
    expect(effectiveQuota({ monthly_quota: 0 }, withDefault)).toBe(0);
    expect(effectiveQuota({}, { DEFAULT_MONTHLY_QUOTA: 0 })).toBe(0);
  });
});

describe('quotaExceededMessage', () => {
  it('names the quota and the month', () => {
    expect(quotaExceededMessage(3, '2026-11')).toBe('Monthly quota of 3 emails reached for 2026-11');
    expect(quotaExceededMessage(1, '2026-12')).toBe('Monthly quota of 1 email reached for 2026-12');
  });
});
