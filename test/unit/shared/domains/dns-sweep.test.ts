import { NodeDnsResolver } from '../../../../shared/platform/adapters/node-dns-resolver';
import type { Services } from '../../../../composition/services';
import { applySpfAndDmarc, sweepDns, sweepDomainRecords, sweepSubdomainRecords } from '../../../../shared/identities/domains/dns-sweep';
import { registrationRecords, type ProviderHosts } from '../../../../shared/identities/domains/dns-records';
import type { DnsRecord, SendingDomain } from '../../../../shared/identities/domains/domain';
import { allDomainsPage, getDomain, saveDomain } from '../../../../shared/identities/domains/domain-repository';
import { listSubdomains, putSubdomain, type Subdomain } from '../../../../shared/identities/domains/subdomains';
import { TestDnsServer } from '../../../support/dns-server';

// No DynamoDB in unit tests: the repository functions sweepDns calls are replaced by mocks.
jest.mock('../../../../shared/identities/domains/domain-repository', () => ({
  ...jest.requireActual('../../../../shared/identities/domains/domain-repository'),
  allDomainsPage: jest.fn(),
  getDomain: jest.fn(),
  saveDomain: jest.fn(),
}));
jest.mock('../../../../shared/identities/domains/subdomains', () => ({
  ...jest.requireActual('../../../../shared/identities/domains/subdomains'),
  listSubdomains: jest.fn(),
  putSubdomain: jest.fn(),
}));
const mockAllDomainsPage = allDomainsPage as jest.MockedFunction<typeof allDomainsPage>;
const mockGetDomain = getDomain as jest.MockedFunction<typeof getDomain>;
const mockSaveDomain = saveDomain as jest.MockedFunction<typeof saveDomain>;
const mockListSubdomains = listSubdomains as jest.MockedFunction<typeof listSubdomains>;
const mockPutSubdomain = putSubdomain as jest.MockedFunction<typeof putSubdomain>;

const AT = '2025-06-01T12:00:00.000Z';
const EARLIER = '2025-06-01T06:00:00.000Z';
const DOMAIN = 'example.com';
const IDENTITY = '6f1c2a9e-0000-4000-8000-000000000001';
const HOSTS = {
  label: 'amazonses',
  dkimHost: 'dkim.amazonses.com',
  spfHost: 'amazonses.com',
  feedbackHost: 'feedback-smtp.us-east-1.amazonses.com',
  inboundHost: 'inbound-smtp.us-east-1.amazonaws.com',
  receiving: true,
  dmarcReportsDomain: 'reply.mailroom.local',
  trackingHost: 'track.mailroom.local',
} satisfies ProviderHosts;
const OUR_SPF = 'v=spf1 include:amazonses.com ~all';

/** The 8 registration records, every one not_set. */
const records = (): DnsRecord[] => registrationRecords({ identityId: IDENTITY, token: 'verif-token', dkimTokens: ['tok1', 'tok2', 'tok3'], hosts: HOSTS });
const byPurpose = (list: DnsRecord[], purpose: DnsRecord['purpose']) => list.find((r) => r.purpose === purpose) as DnsRecord;

function sendingDomain(overrides: Partial<SendingDomain> = {}): SendingDomain {
  return {
    project_id: 'p1',
    domain: DOMAIN,
    identity_id: IDENTITY,
    verification_status: 'pending',
    can_send: false,
    sender_profile_id: 's1',
    verification_token: 'verif-token',
    dkim_tokens: ['tok1', 'tok2', 'tok3'],
    dns_records: records(),
    version: 4,
    check_count: 2,
    last_checked_at: null,
    created_at: EARLIER,
    updated_at: EARLIER,
    ...overrides,
  };
}

function subdomain(kind: 'reply' | 'tracking', parent = DOMAIN): Subdomain {
  const label = kind === 'reply' ? 'reply' : 'track';
  const record: DnsRecord =
    kind === 'reply'
      ? { id: 'r1', record_type: 'MX', name: label, value: HOSTS.inboundHost, priority: 10, purpose: 'reply_mx', status: 'not_set', ttl_hint: 300, last_checked_at: null }
      : { id: 't1', record_type: 'CNAME', name: label, value: HOSTS.trackingHost, purpose: 'tracking_cname', status: 'not_set', ttl_hint: 300, last_checked_at: null };
  return { project_id: 'p1', kind, parent_domain: parent, domain: `${label}.${parent}`, status: 'pending', records: [record], created_at: EARLIER, last_checked_at: null };
}

let dns: TestDnsServer;
let resolver: NodeDnsResolver;

beforeAll(async () => {
  dns = await TestDnsServer.start();
  resolver = new NodeDnsResolver([dns.address]);
});
afterAll(() => dns.close());
beforeEach(() => {
  dns.clear();
  jest.resetAllMocks();
  mockSaveDomain.mockResolvedValue(true);
});

/** The records after a sweep with the given TXT answers at the apex and at _dmarc (undefined: no such name). */
async function sweepWith(apex?: (string | string[])[], dmarc?: (string | string[])[]): Promise<DnsRecord[]> {
  if (apex) dns.set(DOMAIN, 'TXT', apex);
  if (dmarc) dns.set(`_dmarc.${DOMAIN}`, 'TXT', dmarc);
  return sweepDomainRecords(records(), DOMAIN, resolver, AT);
}

describe('SPF record (TXT at the apex)', () => {
  test('is verified when the SPF record includes the provider SPF host', async () => {
    const spf = byPurpose(await sweepWith(['google-site-verification=xyz', 'v=spf1 include:_spf.google.com include:amazonses.com ~all']), 'spf');
    expect(spf).toMatchObject({ status: 'verified', last_checked_at: AT });
  });

  test('is verified when published as several character-strings, with a + qualifier or in another case', async () => {
    const spf = byPurpose(await sweepWith([['v=spf1 mx ', '+include:AmazonSES.com -all']]), 'spf');
    expect(spf.status).toBe('verified');
  });

  test('is a mismatch when an SPF record exists without our include', async () => {
    const spf = byPurpose(await sweepWith(['v=spf1 include:_spf.google.com ~all']), 'spf');
    expect(spf).toMatchObject({ status: 'mismatch', last_checked_at: AT });
  });

  test('is a mismatch when a look-alike host is included (whole term only)', async () => {
    expect(byPurpose(await sweepWith(['v=spf1 include:amazonses.com.evil.example ~all']), 'spf').status).toBe('mismatch');
  });

  test('is a mismatch when two SPF records exist, even if one is ours (a PermError for receivers)', async () => {
    expect(byPurpose(await sweepWith([OUR_SPF, 'v=spf1 include:_spf.google.com ~all']), 'spf').status).toBe('mismatch');
  });

  test('is not_set when the apex has TXT records but none is SPF', async () => {
    const spf = byPurpose(await sweepWith(['google-site-verification=xyz', 'v=spf10 not really']), 'spf');
    expect(spf).toMatchObject({ status: 'not_set', last_checked_at: AT });
  });

  test('is not_set when the name has no TXT at all', async () => {
    expect(byPurpose(await sweepWith(), 'spf')).toMatchObject({ status: 'not_set', last_checked_at: AT });
  });

  test('goes back from verified to mismatch when the include is removed', async () => {
    const before = records().map((r) => (r.purpose === 'spf' ? { ...r, status: 'verified' as const, last_checked_at: EARLIER } : r));
    dns.set(DOMAIN, 'TXT', ['v=spf1 -all']);
    expect(byPurpose(await sweepDomainRecords(before, DOMAIN, resolver, AT), 'spf')).toMatchObject({ status: 'mismatch', last_checked_at: AT });
  });
});

describe('DMARC record (TXT at _dmarc)', () => {
  test('is verified with our record (p=none)', async () => {
    const dmarc = byPurpose(await sweepWith(undefined, [`v=DMARC1; p=none; rua=mailto:d-${IDENTITY}@reply.mailroom.local`]), 'dmarc');
    expect(dmarc).toMatchObject({ status: 'verified', last_checked_at: AT });
  });

  test('is verified with a stricter policy and the owner\'s own rua (p=reject)', async () => {
    expect(byPurpose(await sweepWith(undefined, ['v=DMARC1;p=reject;rua=mailto:dmarc@example.com;pct=100']), 'dmarc').status).toBe('verified');
  });

  test('is verified with p=quarantine, ignoring unrelated TXT at the same name', async () => {
    expect(byPurpose(await sweepWith(undefined, ['some-other-token', 'v=DMARC1; p=quarantine']), 'dmarc').status).toBe('verified');
  });

  test('is a mismatch when the TXT at _dmarc is not a DMARC record', async () => {
    expect(byPurpose(await sweepWith(undefined, ['hello world']), 'dmarc')).toMatchObject({ status: 'mismatch', last_checked_at: AT });
  });

  test('is a mismatch when the DMARC record has no valid p= tag', async () => {
    expect(byPurpose(await sweepWith(undefined, ['v=DMARC1; rua=mailto:x@example.com']), 'dmarc').status).toBe('mismatch');
    expect(byPurpose(await sweepWith(undefined, ['v=DMARC1; p=maybe']), 'dmarc').status).toBe('mismatch');
  });

  test('is a mismatch when two DMARC records exist (receivers then apply none)', async () => {
    expect(byPurpose(await sweepWith(undefined, ['v=DMARC1; p=none', 'v=DMARC1; p=reject']), 'dmarc').status).toBe('mismatch');
  });

  test('is not_set when there is no TXT at _dmarc', async () => {
    expect(byPurpose(await sweepWith([OUR_SPF]), 'dmarc')).toMatchObject({ status: 'not_set', last_checked_at: AT });
  });
});

describe('records the sweep does not own', () => {
  test('dkim, provider_verification and return_path records are returned untouched', async () => {
    const before = records().map((r) => (r.purpose === 'dkim' ? { ...r, status: 'propagating' as const, last_checked_at: EARLIER } : r));
    dns.set(DOMAIN, 'TXT', [OUR_SPF]);
    dns.set(`_dmarc.${DOMAIN}`, 'TXT', ['v=DMARC1; p=none']);
    const after = await sweepDomainRecords(before, DOMAIN, resolver, AT);
    expect(after).toHaveLength(8);
    after.forEach((r, i) => {
      if (r.purpose === 'spf' || r.purpose === 'dmarc') expect(r).toMatchObject({ id: before[i].id, status: 'verified', last_checked_at: AT });
      else expect(r).toBe(before[i]);
    });
  });
});

describe('a failing DNS lookup', () => {
  test('leaves that record unchanged while the other is still checked', async () => {
    const before = records().map((r) => (r.purpose === 'spf' ? { ...r, status: 'verified' as const, last_checked_at: EARLIER } : r));
    dns.set(DOMAIN, 'TXT', 'SERVFAIL');
    dns.set(`_dmarc.${DOMAIN}`, 'TXT', ['v=DMARC1; p=none']);
    const after = await sweepDomainRecords(before, DOMAIN, resolver, AT);
    expect(byPurpose(after, 'spf')).toBe(byPurpose(before, 'spf'));
    expect(byPurpose(after, 'dmarc')).toMatchObject({ status: 'verified', last_checked_at: AT });
  });
});

describe('reply subdomain (MX at reply.<domain>)', () => {
  test('is verified when an MX exchange is the inbound host (case and trailing dot ignored)', async () => {
    dns.set(`reply.${DOMAIN}`, 'MX', [{ exchange: 'INBOUND-SMTP.us-east-1.amazonaws.com.', priority: 10 }]);
    const after = await sweepSubdomainRecords(subdomain('reply'), resolver, AT);
    expect(after).toMatchObject({ status: 'verified', last_checked_at: AT });
    expect(after.records[0]).toMatchObject({ status: 'verified', last_checked_at: AT });
  });

  test('is a mismatch, and the subdomain pending, when the MX points elsewhere', async () => {
    dns.set(`reply.${DOMAIN}`, 'MX', [{ exchange: 'mx.other.example', priority: 10 }]);
    const after = await sweepSubdomainRecords({ ...subdomain('reply'), status: 'verified' }, resolver, AT);
    expect(after.status).toBe('pending');
    expect(after.records[0].status).toBe('mismatch');
  });

  test('is not_set when there is no MX', async () => {
    const after = await sweepSubdomainRecords(subdomain('reply'), resolver, AT);
    expect(after).toMatchObject({ status: 'pending', last_checked_at: AT });
    expect(after.records[0].status).toBe('not_set');
  });

  test('is left unchanged when the lookup fails', async () => {
    dns.set(`reply.${DOMAIN}`, 'MX', 'SERVFAIL');
    const before = subdomain('reply');
    const after = await sweepSubdomainRecords(before, resolver, AT);
    expect(after.records[0]).toBe(before.records[0]);
    expect(after.last_checked_at).toBeNull();
  });
});

describe('tracking subdomain (CNAME at track.<domain>)', () => {
  test('is verified when the CNAME points to the tracking host', async () => {
    dns.set(`track.${DOMAIN}`, 'CNAME', ['track.mailroom.local']);
    const after = await sweepSubdomainRecords(subdomain('tracking'), resolver, AT);
    expect(after.status).toBe('verified');
    expect(after.records[0]).toMatchObject({ status: 'verified', last_checked_at: AT });
  });

  test('is a mismatch when the CNAME points elsewhere', async () => {
    dns.set(`track.${DOMAIN}`, 'CNAME', ['somewhere.else.example']);
    const after = await sweepSubdomainRecords(subdomain('tracking'), resolver, AT);
    expect(after.status).toBe('pending');
    expect(after.records[0].status).toBe('mismatch');
  });

  test('is not_set when there is no CNAME', async () => {
    expect((await sweepSubdomainRecords(subdomain('tracking'), resolver, AT)).records[0].status).toBe('not_set');
  });
});

describe('sweepDns (repository mocked)', () => {
  const deps = () => ({ db: {}, dns: resolver, clock: { now: () => new Date(AT) } }) as unknown as Services;

  test('pages through every domain, writes SPF/DMARC with the version bumped, and never touches verification_status or can_send', async () => {
    const a = sendingDomain({ verification_status: 'verified', can_send: true });
    const b = sendingDomain({ project_id: 'p2', domain: 'other.example', version: 9, verification_status: 'failed', can_send: false });
    mockAllDomainsPage.mockResolvedValueOnce({ domains: [a], next: { pk: 'page2' } }).mockResolvedValueOnce({ domains: [b] });
    mockListSubdomains.mockResolvedValue([]);
    dns.set(DOMAIN, 'TXT', [OUR_SPF]);
    dns.set(`_dmarc.${DOMAIN}`, 'TXT', ['v=DMARC1; p=reject']);
    dns.set('other.example', 'TXT', ['v=spf1 include:mailgun.org ~all']);

    await expect(sweepDns(deps())).resolves.toEqual({ domains: 2, records: 4 });

    expect(mockAllDomainsPage).toHaveBeenNthCalledWith(2, expect.anything(), { pk: 'page2' });
    expect(mockSaveDomain).toHaveBeenCalledTimes(2);
    const callFor = (name: string) => mockSaveDomain.mock.calls.find(([, d]) => d.domain === name)!;
    const [, savedA, expectedA] = callFor(DOMAIN);
    expect(savedA).toMatchObject({ version: 5, verification_status: 'verified', can_send: true, updated_at: AT });
    expect(expectedA).toBe(4);
    expect(byPurpose(savedA.dns_records, 'spf').status).toBe('verified');
    expect(byPurpose(savedA.dns_records, 'dmarc').status).toBe('verified');
    const [, savedB, expectedB] = callFor('other.example');
    expect(savedB).toMatchObject({ version: 10, verification_status: 'failed', can_send: false });
    expect(expectedB).toBe(9);
    expect(byPurpose(savedB.dns_records, 'spf').status).toBe('mismatch');
    expect(byPurpose(savedB.dns_records, 'dmarc').status).toBe('not_set');
    // The records the provider owns are written back exactly as read.
    for (const purpose of ['dkim', 'provider_verification', 'return_path'] as const) {
      expect(savedA.dns_records.filter((r) => r.purpose === purpose)).toEqual(a.dns_records.filter((r) => r.purpose === purpose));
    }
  });

  test('re-reads and retries once when the domain changed concurrently', async () => {
    const stale = sendingDomain({ version: 4 });
    const fresh = sendingDomain({ version: 5, verification_status: 'verified', can_send: true });
    mockAllDomainsPage.mockResolvedValueOnce({ domains: [stale] });
    mockListSubdomains.mockResolvedValue([]);
    mockSaveDomain.mockResolvedValueOnce(false).mockResolvedValueOnce(true);
    mockGetDomain.mockResolvedValueOnce(fresh);
    dns.set(DOMAIN, 'TXT', [OUR_SPF]);

    await sweepDns(deps());

    expect(mockGetDomain).toHaveBeenCalledWith(expect.anything(), 'p1', DOMAIN, true);
    expect(mockSaveDomain).toHaveBeenCalledTimes(2);
    const [, retried, expected] = mockSaveDomain.mock.calls[1];
    expect(expected).toBe(5);
    expect(retried).toMatchObject({ version: 6, verification_status: 'verified', can_send: true });
    expect(byPurpose(retried.dns_records, 'spf').status).toBe('verified');
  });

  test('skips the domain after a second conflict, and goes on with the next one', async () => {
    mockAllDomainsPage.mockResolvedValueOnce({ domains: [sendingDomain(), sendingDomain({ domain: 'next.example' })] });
    mockListSubdomains.mockResolvedValue([]);
    mockGetDomain.mockResolvedValue(sendingDomain({ version: 5 }));
    mockSaveDomain.mockImplementation(async (_db, d) => d.domain !== DOMAIN);

    await expect(sweepDns(deps())).resolves.toEqual({ domains: 2, records: 4 });
    expect(mockSaveDomain.mock.calls.filter(([, d]) => d.domain === DOMAIN)).toHaveLength(2);
    expect(mockSaveDomain.mock.calls.filter(([, d]) => d.domain === 'next.example')).toHaveLength(1);
  });

  test('does not write a domain whose lookups all failed', async () => {
    mockAllDomainsPage.mockResolvedValueOnce({ domains: [sendingDomain()] });
    mockListSubdomains.mockResolvedValue([]);
    dns.set(DOMAIN, 'TXT', 'SERVFAIL');
    dns.set(`_dmarc.${DOMAIN}`, 'TXT', 'SERVFAIL');

    await expect(sweepDns(deps())).resolves.toEqual({ domains: 1, records: 0 });
    expect(mockSaveDomain).not.toHaveBeenCalled();
  });

  test('sweeps the reply and tracking subdomains of the projects seen', async () => {
    mockAllDomainsPage.mockResolvedValueOnce({ domains: [sendingDomain(), sendingDomain({ domain: 'second.example' })] });
    mockListSubdomains.mockImplementation(async (_db, kind) => [subdomain(kind)]);
    dns.set(`reply.${DOMAIN}`, 'MX', [{ exchange: HOSTS.inboundHost, priority: 10 }]);
    dns.set(`track.${DOMAIN}`, 'CNAME', ['elsewhere.example']);

    const counts = await sweepDns(deps());

    expect(counts).toEqual({ domains: 2, records: 4 + 2 });
    // One project: each kind listed once.
    expect(mockListSubdomains.mock.calls.map(([, kind, project]) => `${kind}:${project}`).sort()).toEqual(['reply:p1', 'tracking:p1']);
    const put = mockPutSubdomain.mock.calls.map(([, s]) => s);
    expect(put.find((s) => s.kind === 'reply')).toMatchObject({ status: 'verified', last_checked_at: AT });
    expect(put.find((s) => s.kind === 'tracking')).toMatchObject({ status: 'pending', records: [expect.objectContaining({ status: 'mismatch' })] });
  });
});

describe('applySpfAndDmarc', () => {
  test('changes nothing when no answer came back', () => {
    const before = records();
    expect(applySpfAndDmarc(before, {}, AT)).toEqual(before);
  });
});
