import { NodeDnsResolver } from '../../../../shared/platform/adapters/node-dns-resolver';
import { registrationRecords } from '../../../../shared/identities/domains/dns-records';
import type { SendingDomain } from '../../../../shared/identities/domains/domain';
import { ownershipStatus } from '../../../../shared/identities/domains/ownership';
import { TestDnsServer } from '../../../support/dns-server';

const hosts = {
  label: 'amazonses',
  dkimHost: 'dkim.amazonses.com',
  spfHost: 'amazonses.com',
  feedbackHost: 'feedback-smtp.us-east-1.amazonses.com',
  inboundHost: 'inbound-smtp.us-east-1.amazonaws.com',
  receiving: true,
  dmarcReportsDomain: 'reports.example.net',
  trackingHost: 'track.example.net',
};

function registration(token: string): SendingDomain {
  const records = registrationRecords({ identityId: 'i1', token: '', dkimTokens: ['a', 'b', 'c'], hosts });
  records[0].value = token;
  return {
    project_id: 'p1',
    domain: 'owned.example.com',
    identity_id: 'i1',
    verification_status: 'pending',
    can_send: false,
    sender_profile_id: 's1',
    verification_token: token,
    dkim_tokens: ['a', 'b', 'c'],
    dns_records: records,
    version: 1,
    check_count: 0,
    last_checked_at: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
}

let server: TestDnsServer;
let dns: NodeDnsResolver;
beforeAll(async () => {
  server = await TestDnsServer.start();
  dns = new NodeDnsResolver([server.address]);
});
afterEach(() => server.clear());
afterAll(() => server.close());

describe("Ownership of a domain: this project's own token at _<provider_label>", () => {
  test('the token among the TXT values there is a proof (other projects may publish theirs beside it)', async () => {
    server.set('_amazonses.owned.example.com', 'TXT', ['someone-else', 'mine-123']);
    await expect(ownershipStatus({ dns }, registration('mine-123'))).resolves.toBe('verified');
  });

  test("only another project's token there is a mismatch", async () => {
    server.set('_amazonses.owned.example.com', 'TXT', ['someone-else']);
    await expect(ownershipStatus({ dns }, registration('mine-123'))).resolves.toBe('mismatch');
  });

  test('nothing published is not_set', async () => {
    await expect(ownershipStatus({ dns }, registration('mine-123'))).resolves.toBe('not_set');
  });

  test('a failing lookup proves nothing: not_set, never an error', async () => {
    server.set('_amazonses.owned.example.com', 'TXT', 'SERVFAIL');
    await expect(ownershipStatus({ dns }, registration('mine-123'))).resolves.toBe('not_set');
  });

  test('a registration without a token owns nothing, even when some TXT is there', async () => {
    server.set('_amazonses.owned.example.com', 'TXT', ['']);
    await expect(ownershipStatus({ dns }, registration(''))).resolves.toBe('not_set');
  });
});
