import type { Campaign } from '../../../../shared/marketing/campaigns/campaign';
import { GUARD_MIN_SAMPLE, pausedEvent, reputationVerdict } from '../../../../shared/marketing/campaigns/reputation-guard';

describe('the reputation guard', () => {
  test('stays quiet under the minimum sample, whatever the rates', () => {
    expect(reputationVerdict({ delivered: 400, hard_bounced: GUARD_MIN_SAMPLE - 401, complained: 50 })).toBeUndefined();
  });

  test('pauses for bounces above 5% of delivered plus hard-bounced', () => {
    expect(reputationVerdict({ delivered: 470, hard_bounced: 30, complained: 0 })).toEqual({ reason: 'bounce_rate', rate: 0.06, sample: 500 });
  });

  test('exactly 5% does not pause', () => {
    expect(reputationVerdict({ delivered: 950, hard_bounced: 50, complained: 0 })).toBeUndefined();
  });

  test('pauses for complaints above 0.1% of delivered', () => {
    expect(reputationVerdict({ delivered: 1000, hard_bounced: 0, complained: 2 })).toEqual({ reason: 'complaint_rate', rate: 0.002, sample: 1000 });
    expect(reputationVerdict({ delivered: 1000, hard_bounced: 0, complained: 1 })).toBeUndefined();
  });

  test('the campaign.paused event names the campaign, the reason and the measured rate', () => {
    const campaign = { id: 'c1', project_id: 'p1', name: 'Spring', mode: 'live' } as Campaign;
    const at = '2026-03-02T09:00:00.000Z';
    expect(pausedEvent(campaign, { reason: 'bounce_rate', rate: 0.06, sample: 500, at })).toEqual({
      event: 'campaign.paused',
      timestamp: at,
      project_id: 'p1',
      is_test: false,
      data: { campaign_id: 'c1', name: 'Spring', reason: 'bounce_rate', rate: 0.06, sample: 500, paused_at: at },
    });
  });
});
