import {
  MARKETING_PAUSE_LEVELS,
  marketingPausedEvent,
  marketingPauseVerdict,
  pauseExplanation,
  projectsToWatch,
  REPUTATION_MIN_SAMPLE,
  windowStart,
  type ReputationReading,
} from '../../../../shared/identities/reputation/project-reputation';
import { projectMarketingPausedEventSchema } from '../../../../shared/notifications/webhooks/webhook-payloads';

const reading = (sent: number, bounced: number, complained: number): ReputationReading => ({
  since: '2026-11-19T10:00:00.000Z',
  sent,
  bounced,
  complained,
  bounce_rate: sent > 0 ? bounced / sent : 0,
  complaint_rate: sent > 0 ? complained / sent : 0,
});

describe('the project reputation verdict', () => {
  test('stays quiet under the minimum sample, whatever the rates', () => {
    expect(marketingPauseVerdict(reading(REPUTATION_MIN_SAMPLE - 1, 200, 50))).toBeUndefined();
  });

  test('pauses at a 4% permanent-bounce rate, below SES\'s 5% review line', () => {
    expect(MARKETING_PAUSE_LEVELS.bounce).toBe(0.04);
    expect(marketingPauseVerdict(reading(1000, 40, 0))).toEqual({ reason: 'bounce_rate', rate: 0.04, threshold: 0.04, sample: 1000, since: '2026-11-19T10:00:00.000Z' });
    expect(marketingPauseVerdict(reading(1000, 39, 0))).toBeUndefined();
  });

  test('pauses at a 0.08% complaint rate, below SES\'s 0.1% review line', () => {
    expect(marketingPauseVerdict(reading(10_000, 0, 8))).toMatchObject({ reason: 'complaint_rate', rate: 0.0008, threshold: 0.0008, sample: 10_000 });
    expect(marketingPauseVerdict(reading(10_000, 0, 7))).toBeUndefined();
  });

  test('the bounce reason wins when both are passed', () => {
    expect(marketingPauseVerdict(reading(1000, 50, 5))?.reason).toBe('bounce_rate');
  });
});

describe('the watched window', () => {
  const now = new Date('2026-11-26T10:30:00.000Z');

  test('is the last 7 days, whole hours', () => {
    expect(windowStart({}, now).toISOString()).toBe('2026-11-19T11:00:00.000Z');
  });

  test('starts at the hour of the last resume when that is later: what came before was acknowledged', () => {
    expect(windowStart({ marketing_resumed_at: '2026-11-25T08:12:00.000Z' }, now).toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(windowStart({ marketing_resumed_at: '2026-10-01T08:12:00.000Z' }, now).toISOString()).toBe('2026-11-19T11:00:00.000Z');
  });
});

describe('which projects a batch of SES events makes the watch check', () => {
  test('only those with a permanent bounce or a complaint', () => {
    const totals = new Map([
      ['a', { delivered: 10 }],
      ['b', { hard_bounced: 1 }],
      ['c', { complained: 2, delivered: 1 }],
      ['d', { soft_bounced: 3 } as Record<string, number>],
    ]);
    expect(projectsToWatch(totals)).toEqual(['b', 'c']);
  });
});

describe('the project.marketing_paused event', () => {
  test('carries the reason, the rate, the level and a sentence to act on, and matches its documented schema', () => {
    const pause = { reason: 'bounce_rate' as const, rate: 0.0452, threshold: 0.04, sample: 2412, since: '2026-11-19T09:00:00.000Z', at: '2026-11-26T09:30:00.000Z' };
    const event = marketingPausedEvent('8b1d6f3e-5c2a-4e7f-9a1b-3c5d7e9f1a2b', pause);
    expect(event).toMatchObject({ event: 'project.marketing_paused', timestamp: pause.at, data: { reason: 'bounce_rate', rate: 0.0452, paused_at: pause.at } });
    expect(projectMarketingPausedEventSchema.safeParse(event).success).toBe(true);
    expect(pauseExplanation(pause)).toContain('4.52% over 2412 mails');
    expect(pauseExplanation(pause)).toContain('Transactional mail still goes out');
  });
});
