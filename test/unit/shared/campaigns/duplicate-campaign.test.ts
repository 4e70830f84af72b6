import type { Campaign, CampaignStatus } from '../../../../shared/marketing/campaigns/campaign';
import { findDuplicate } from '../../../../shared/marketing/campaigns/duplicate-campaign';

const now = new Date('2026-11-24T12:00:00.000Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
const earlier = (over: Partial<Campaign> & { created_at: string; status?: CampaignStatus }): Campaign =>
  ({ id: 'c-1', name_lc: 'spring sale', subject_lc: 'our spring sale', template_id: 't-1', status: 'processing', ...over }) as Campaign;
const candidate = { name_lc: 'spring sale', subject_lc: 'our spring sale', template_id: 't-1' };

describe('duplicate detection (4.8, part 8 windows)', () => {
  it('the same subject within 60 minutes, in any state: subject_match_60min', () => {
    const found = findDuplicate(candidate, [earlier({ created_at: minutesAgo(59), status: 'cancelled', name_lc: 'other' })], now);
    expect(found?.reason).toBe('subject_match_60min');
  });

  it('the same subject 61 minutes ago is not a subject match', () => {
    expect(findDuplicate({ ...candidate, name_lc: 'new' }, [earlier({ created_at: minutesAgo(61) })], now)).toBeUndefined();
  });

  it.each(['pending', 'paused', 'processing', 'initializing'] as const)('the same name and template within 24 hours, %s: name_template_24h', (status) => {
    const found = findDuplicate({ ...candidate, subject_lc: 'new subject' }, [earlier({ created_at: minutesAgo(23 * 60), status })], now);
    expect(found?.reason).toBe('name_template_24h');
  });

  it.each(['completed', 'failed', 'cancelled', 'rate_limited'] as const)('the same name and template in %s is not a duplicate', (status) => {
    expect(findDuplicate({ ...candidate, subject_lc: 'new subject' }, [earlier({ created_at: minutesAgo(10), status })], now)).toBeUndefined();
  });

  it('another template, or more than 24 hours ago, is not a name match', () => {
    expect(findDuplicate({ ...candidate, subject_lc: 'x', template_id: 't-2' }, [earlier({ created_at: minutesAgo(10) })], now)).toBeUndefined();
    expect(findDuplicate({ ...candidate, subject_lc: 'x' }, [earlier({ created_at: minutesAgo(24 * 60 + 1) })], now)).toBeUndefined();
  });

  it('a subject match wins over a name match', () => {
    const found = findDuplicate(candidate, [earlier({ id: 'by-name', created_at: minutesAgo(5), subject_lc: 'x' }), earlier({ id: 'by-subject', created_at: minutesAgo(30), name_lc: 'y' })], now);
    expect(found).toMatchObject({ reason: 'subject_match_60min', existing: { id: 'by-subject' } });
  });
});
