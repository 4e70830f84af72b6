import type { Campaign } from '../../../../shared/marketing/campaigns/campaign';
import { allowance, campaignRate, RATE_WINDOW_SECONDS, windowOf } from '../../../../shared/marketing/campaigns/pacing';

const T = new Date('2026-03-02T09:00:00.000Z');
const at = (ms: number) => new Date(T.getTime() + ms);
const HOUR = 3600_000;

/** The fields pacing reads; the rest of a Campaign does not matter here. */
const campaign = (over: Partial<Campaign>): Campaign => ({ total_recipients: 0, batch_mode: false, batch_interval_hours: 0, ...over }) as Campaign;

describe('sendOverHours spreads the audience evenly (fixed clock)', () => {
  const spread = campaign({ total_recipients: 7200, send_over_hours: 2 });

  test('the first step releases the share of its first window: 1 a second for 7,200 over 2 hours', () => {
    expect(allowance(spread, 0, T, T).want).toBe(RATE_WINDOW_SECONDS);
  });

  test('a step an hour in releases what is due by the end of its window, less what went already', () => {
    expect(allowance(spread, 3000, T, at(HOUR)).want).toBe(3600 + RATE_WINDOW_SECONDS - 3000);
  });

  test('a late step catches up, a replayed one releases nothing more', () => {
    expect(allowance(spread, 10, T, at(30 * 60_000)).want).toBe(1800 + RATE_WINDOW_SECONDS - 10);
    expect(allowance(spread, 3610, T, at(HOUR)).want).toBe(0);
  });

  test('after the hours, all that is left is due', () => {
    expect(allowance(spread, 7000, T, at(3 * HOUR)).want).toBe(200);
  });
});

describe('batchMode releases batchSize per batch, one batch per batchIntervalHours (fixed clock)', () => {
  const batches = campaign({ total_recipients: 250, batch_mode: true, batch_size: 100, batch_interval_hours: 24 });

  test('the first batch goes at the start', () => {
    expect(allowance(batches, 0, T, T)).toEqual({ want: 100, currentBatch: 1 });
  });

  test('a batch partly released releases the rest of it', () => {
    expect(allowance(batches, 40, T, at(60_000))).toEqual({ want: 60, currentBatch: 1 });
  });

  test('once a batch is out, nothing goes until the next batch time, which the step records', () => {
    expect(allowance(batches, 100, T, at(HOUR))).toEqual({ want: 0, currentBatch: 2, nextBatchAt: at(24 * HOUR) });
  });

  test('at the next batch time the next batchSize goes', () => {
    expect(allowance(batches, 100, T, at(24 * HOUR))).toEqual({ want: 100, currentBatch: 2 });
    expect(allowance(batches, 200, T, at(47 * HOUR))).toEqual({ want: 0, currentBatch: 3, nextBatchAt: at(48 * HOUR) });
  });

  test('a campaign without batchMode or sendOverHours is limited only by the shared rate', () => {
    expect(allowance(campaign({ total_recipients: 10 }), 0, T, T).want).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('the shared campaign rate', () => {
  const account = (rate: number) => ({ maxSendRate: async () => rate });

  test('is the account SES rate less the transactional share', async () => {
    expect(await campaignRate({ config: { TRANSACTIONAL_RATE_SHARE: 0.3 } as never, account: account(1000) })).toBe(700);
  });

  test('CAMPAIGN_SEND_RATE overrides the account rate, and SES is not asked', async () => {
    const never = { maxSendRate: async () => { throw new Error('GetAccount called'); } };
    expect(await campaignRate({ config: { CAMPAIGN_SEND_RATE: 3000, TRANSACTIONAL_RATE_SHARE: 0.3 } as never, account: never })).toBeCloseTo(2100);
  });

  test('windows are RATE_WINDOW_SECONDS long, named by their first second', () => {
    expect(windowOf(at(9_999))).toBe(T.getTime() / 1000);
    expect(windowOf(at(10_000))).toBe(T.getTime() / 1000 + RATE_WINDOW_SECONDS);
  });
});
