import { fqdn, providerHosts, registrationRecords, withDkimTokens } from '../../../../shared/identities/domains/dns-records';
import type { Config } from '../../../../shared/platform/core/config';
import { isDomainName } from '../../../../shared/platform/mail/addresses';

const hosts = {
  label: 'amazonses',
  dkimHost: 'dkim.amazonses.com',
  spfHost: 'amazonses.com',
  feedbackHost: 'feedback-smtp.eu-west-1.amazonses.com',
  inboundHost: 'inbound-smtp.eu-west-1.amazonaws.com',
  receiving: true,
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

describe('The DMARC record and receiving (docs/decisions.md, "Receiving off: no promises of a mailbox")', () => {
  const cfg = (changes: Partial<Config>) =>
    ({ PROVIDER_LABEL: 'amazonses', PROVIDER_DKIM_HOST: 'd', PROVIDER_SPF_HOST: 's', AWS_REGION: 'eu-west-1', INBOUND_DOMAIN: 'reply.mail.example.com', ...changes }) as Config;
  const dmarcOf = (c: Config) =>
    registrationRecords({ identityId: 'ID-1', token: 'T', dkimTokens: ['k1', 'k2', 'k3'], hosts: providerHosts(c) }).find((r) => r.purpose === 'dmarc')!.value;

  test('with receiving, reports go to the inbound domain unless a reports domain is set', () => {
    expect(dmarcOf(cfg({ RECEIVING: 'on' }))).toBe('v=DMARC1; p=none; rua=mailto:d-ID-1@reply.mail.example.com');
    expect(dmarcOf(cfg({ RECEIVING: 'on', DMARC_REPORTS_DOMAIN: 'dmarc.example.net' }))).toBe('v=DMARC1; p=none; rua=mailto:d-ID-1@dmarc.example.net');
  });

  test('without receiving, the record names the reports domain when one is set, and no rua at all otherwise', () => {
    expect(dmarcOf(cfg({ RECEIVING: 'off', DMARC_REPORTS_DOMAIN: 'dmarc.example.net' }))).toBe('v=DMARC1; p=none; rua=mailto:d-ID-1@dmarc.example.net');
    expect(dmarcOf(cfg({ RECEIVING: 'off' }))).toBe('v=DMARC1; p=none');
  });

  test('the registration keeps its 8 records either way', () => {
    for (const RECEIVING of ['on', 'off'] as const) {
      const records = registrationRecords({ identityId: 'ID-1', token: 'T', dkimTokens: ['k1', 'k2', 'k3'], hosts: providerHosts(cfg({ RECEIVING })) });
      expect(records.map((r) => r.purpose)).toEqual(['provider_verification', 'dkim', 'dkim', 'dkim', 'spf', 'dmarc', 'return_path', 'return_path']);
    }
  });

  test('reply domains are possible only with receiving', () => {
    expect(providerHosts(cfg({ RECEIVING: 'on' })).receiving).toBe(true);
    expect(providerHosts(cfg({ RECEIVING: 'off' })).receiving).toBe(false);
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
