import { retryDelaySeconds } from '../../../../shared/mail-pipeline/retry';

describe('retryDelaySeconds', () => {
  test.each<[number, number, number]>([
    [2, 30, 40],
    [3, 60, 70],
    [4, 120, 130],
    [5, 240, 250],
  ])('attempt %i waits within [%i, %i) seconds', (attempt, low, high) => {
    for (const r of [0, 0.25, 0.5, 0.999999]) {
      const delay = retryDelaySeconds(attempt, () => r);
      expect(delay).toBeGreaterThanOrEqual(low);
      expect(delay).toBeLessThan(high);
      expect(Number.isInteger(delay)).toBe(true);
    }
  });

  test('with a fixed random the delay is exactly base plus floor(10 * random)', () => {
    expect(retryDelaySeconds(2, () => 0)).toBe(30);
    expect(retryDelaySeconds(3, () => 0.5)).toBe(65);
    expect(retryDelaySeconds(4, () => 0.999)).toBe(129);
    expect(retryDelaySeconds(5, () => 0.3)).toBe(243);
  });

  test('delays grow with each attempt', () => {
    const fixed = () => 0.5;
    const delays = [2, 3, 4, 5].map((a) => retryDelaySeconds(a, fixed));
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]);
  });

  test('never above 900 seconds (the SQS maximum), even for late attempts', () => {
    for (let attempt = 2; attempt <= 30; attempt++) {
      expect(retryDelaySeconds(attempt, () => 0.999999)).toBeLessThanOrEqual(900);
    }
    expect(retryDelaySeconds(7, () => 0)).toBe(900);
  });

  test('uses Math.random by default and stays within range', () => {
    for (let i = 0; i < 100; i++) {
      const delay = retryDelaySeconds(2);
      expect(delay).toBeGreaterThanOrEqual(30);
      expect(delay).toBeLessThan(40);
    }
  });
});
