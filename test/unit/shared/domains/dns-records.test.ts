import { fqdn, registrationRecords, withDkimTokens } from '../../../../shared/domains/dns-records';
import { isDomainName } from '../../../../shared/mail/addresses';

const hosts = {
  label: 'amazonses',
  dkimHost: 'dkim.amazonses.com',
  spfHost: 'amazonses.com',
  feedbackHost: 'feedback-smtp.eu-west-1.amazonses.com',
  inboundHost: 'inbound-smtp.eu-west-1.amazonaws.com',
  dmarcReportsDomain: 'dmarc.mailroom.example',
  trackingHost: 'track.mailroom.example',
};

describe('The 8 records of part 2', () => {
  const records = registrationRecords({ identityId: 'ID-1', token: 'TOKEN', dkimTokens: ['k1', 'k2', 'k3'], hosts });

  test('types, names, purposes, values and TTL hints to the letter', () => {
    expect(records.map((r) => [r.record_type, r.name, r.purpose, r.value, r.ttl_hint])).toEqual([
      ['TXT', '_amazonses', 'provider_verification', 'TOKEN', 300],
      ['CNAME', 'k1._domainkey', 'dkim', 'k1.dkim.amazonses.com', 1800],
      ['CNAME', 'k2._domainkey', 'dkim', 'k2.dkim.amazonses.com', 1800],
      ['CNAME', 'k3._domainkey', 'dkim', 'k3.dkim.amazonses.com', 1800],
      ['TXT', '@', 'spf', 'v=spf1 include:amazonses.com ~all', 300],
      ['TXT', '_dmarc', 'dmarc', 'v=DMARC1; p=none; rua=mailto:d-ID-1@dmarc.mailroom.example', 300],
      ['MX', 'send', 'return_path', '10 feedback-smtp.eu-west-1.amazonses.com', 300],
      ['TXT', 'send', 'return_path', 'v=spf1 include:amazonses.com ~all', 300],
    ]);
  });

  test('all start not_set and unchecked, with distinct ids', () => {
    expect(records.every((r) => r.status === 'not_set' && r.last_checked_at === null)).toBe(true);
    expect(new Set(records.map((r) => r.id)).size).toBe(8);
  });

  test('new DKIM tokens replace the three DKIM records in place', () => {
    const next = withDkimTokens(records, ['n1', 'n2', 'n3'], hosts);
    expect(next.map((r) => r.name)).toEqual(['_amazonses', 'n1._domainkey', 'n2._domainkey', 'n3._domainkey', '@', '_dmarc', 'send', 'send']);
  });
});

describe('Names', () => {
  test('fqdn joins a relative name to the domain; @ is the domain itself', () => {
    expect(fqdn('@', 'example.com')).toBe('example.com');
    expect(fqdn('_dmarc', 'example.com')).toBe('_dmarc.example.com');
  });
  test.each(['example.com', 'mail.example.co.uk', 'a-b.example.io'])('%s is a domain', (d) => expect(isDomainName(d)).toBe(true));
  test.each(['example', 'exa mple.com', '-x.com', 'x..com', 'https://x.com', 'x.c'])('%s is not', (d) => expect(isDomainName(d)).toBe(false));
});
