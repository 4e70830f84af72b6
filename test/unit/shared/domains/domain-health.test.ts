import type { SendingDomain } from '../../../../shared/identities/domains/domain';
import { assessDomain } from '../../../../shared/identities/domains/domain-health';
import { registrationRecords } from '../../../../shared/identities/domains/dns-records';
import { hardBounceRate } from '../../../../shared/identities/stats/domain-stats';

const hosts = { label: 'amazonses', dkimHost: 'd', spfHost: 's', feedbackHost: 'f', inboundHost: 'i', receiving: true, dmarcReportsDomain: 'r', trackingHost: 't' };

function domain(over: Partial<SendingDomain> = {}, statuses: Record<string, 'verified' | 'not_set' | 'mismatch'> = {}): SendingDomain {
  const records = registrationRecords({ identityId: 'i', token: 't', dkimTokens: ['a', 'b', 'c'], hosts }).map((r) => ({
    ...r,
    status: statuses[r.purpose] ?? 'verified',
  }));
  return {
    project_id: 'p',
    domain: 'example.com',
    identity_id: 'i',
    verification_status: 'verified',
    can_send: true,
    sender_profile_id: 's',
    verification_token: 't',
    dkim_tokens: ['a', 'b', 'c'],
    dns_records: records,
    details: { domain_verification: 'SUCCESS', dkim_verification: 'SUCCESS', mail_from_status: 'SUCCESS' },
    version: 1,
    check_count: 1,
    last_checked_at: null,
    created_at: '',
    updated_at: '',
    ...over,
  };
}

describe('hard_bounce_rate: permanent bounces per 100 live mails sent', () => {
  test.each([
    [0, 0, 0],
    [1000, 5, 0.5],
    [200, 12, 6],
    [3, 1, 33.33],
  ])('%i sent, %i hard bounced -> %d', (sent, hard, rate) => expect(hardBounceRate({ sent, hard_bounced: hard })).toBe(rate));
});

describe('Domain health', () => {
  test('everything verified and few bounces is healthy with no issues', () => {
    expect(assessDomain(domain(), 1000, 0.1)).toEqual({ status: 'healthy', issues: [] });
  });
  test('can send but DKIM unverified is critical: mail goes out unsigned', () => {
    const d = domain({ details: { domain_verification: 'SUCCESS', dkim_verification: 'PENDING', mail_from_status: 'SUCCESS' } }, { dkim: 'not_set' });
    const { status, issues } = assessDomain(d, 0, 0);
    expect(status).toBe('critical');
    expect(issues[0]).toMatch(/DKIM is not verified.*a\._domainkey\.example\.com/);
  });
  test('a missing DMARC record is a warning that says where to publish it', () => {
    const { status, issues } = assessDomain(domain({}, { dmarc: 'not_set' }), 0, 0);
    expect(status).toBe('warning');
    expect(issues).toEqual([expect.stringMatching(/No DMARC record found at _dmarc\.example\.com/)]);
  });
  test("an invalid DMARC record is a warning that quotes the domain's own record: its rua only where reports are received", () => {
    const withReports = assessDomain(domain({}, { dmarc: 'mismatch' }), 0, 0).issues[0];
    expect(withReports).toMatch(/_dmarc\.example\.com is not a valid DMARC record: publish "v=DMARC1; p=none; rua=mailto:d-i@r"/);
    const records = registrationRecords({ identityId: 'i', token: 't', dkimTokens: ['a'], hosts: { ...hosts, receiving: false, dmarcReportsDomain: undefined } });
    const withoutReports = assessDomain(domain({ dns_records: records.map((r) => ({ ...r, status: r.purpose === 'dmarc' ? 'mismatch' : 'verified' })) }), 0, 0).issues[0];
    expect(withoutReports).toMatch(/publish "v=DMARC1; p=none"\.$/);
  });
  test('an SPF record without the provider is a warning', () => {
    expect(assessDomain(domain({}, { spf: 'mismatch' }), 0, 0).issues[0]).toMatch(/SPF record .* does not include/);
  });
  test('a permanent-bounce rate from 2.5% warns, from 5% is critical', () => {
    expect(assessDomain(domain(), 100, 2.5).status).toBe('warning');
    expect(assessDomain(domain(), 100, 5).status).toBe('critical');
    expect(assessDomain(domain(), 100, 5).issues[0]).toMatch(/5%/);
  });
  test('a failed domain is critical and says how to recover', () => {
    const { status, issues } = assessDomain(domain({ verification_status: 'failed', can_send: false }), 0, 0);
    expect(status).toBe('critical');
    expect(issues[0]).toMatch(/recreate/);
  });
});
