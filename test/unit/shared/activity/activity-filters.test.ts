import { AppError } from '../../../../shared/platform/core/errors';
import { parseActivityFilters } from '../../../../shared/mail-pipeline/activity/activity-list';

describe('GET /v1/activity filters', () => {
  test('since and until become ISO timestamps', () => {
    expect(parseActivityFilters({ since: '2026-01-01', until: '2026-02-01T00:00:00Z' })).toEqual({ since: '2026-01-01T00:00:00.000Z', until: '2026-02-01T00:00:00.000Z' });
  });

  test('since after until is a 400', () => {
    let error: unknown;
    try {
      parseActivityFilters({ since: '2030-01-01T00:00:00Z', until: '2020-01-01T00:00:00Z' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, message: 'since must not be after until' });
  });

  test('since equal to until is one instant, allowed', () => {
    expect(() => parseActivityFilters({ since: '2026-01-01T00:00:00Z', until: '2026-01-01T00:00:00Z' })).not.toThrow();
  });
});
