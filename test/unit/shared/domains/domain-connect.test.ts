import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFetcher } from '../../../../shared/platform/adapters/http-fetcher';
import { NodeDnsResolver } from '../../../../shared/platform/adapters/node-dns-resolver';
import type { Services } from '../../../../composition/services';
import { registrationRecords, type ProviderHosts } from '../../../../shared/identities/domains/dns-records';
import type { SendingDomain } from '../../../../shared/identities/domains/domain';
import { discoverDomainConnect } from '../../../../shared/identities/domains/domain-connect';
import { TestDnsServer } from '../../../support/dns-server';

const IDENTITY = '6f1c2a9e-0000-4000-8000-000000000001';
const HOSTS: ProviderHosts = {
  label: 'amazonses',
  dkimHost: 'dkim.amazonses.com',
  spfHost: 'amazonses.com',
  feedbackHost: 'feedback-smtp.us-east-1.amazonses.com',
  inboundHost: 'inbound-smtp.us-east-1.amazonaws.com',
  receiving: true,
  dmarcReportsDomain: 'reply.mailroom.local',
  trackingHost: 'track.mailroom.local',
};
const TOKEN = 'pmBGN/7MjnfhTKUZ06Enqq1PeGUaOkw8lGhcfwefcHU=';
const TEMPLATE = '/v2/domainTemplates/providers/mailroom.dev/services/email';

function sendingDomain(domain: string): SendingDomain {
  const dns_records = registrationRecords({ identityId: IDENTITY, token: TOKEN, dkimTokens: ['dk1abc', 'dk2def', 'dk3ghi'], hosts: HOSTS });
  dns_records[0].value = TOKEN;
  return {
    project_id: 'p1',
    domain,
    identity_id: IDENTITY,
    verification_status: 'pending',
    can_send: false,
    sender_profile_id: 's1',
    verification_token: TOKEN,
    dkim_tokens: ['dk1abc', 'dk2def', 'dk3ghi'],
    dns_records,
    version: 1,
    check_count: 0,
    last_checked_at: null,
    created_at: '2025-06-01T00:00:00.000Z',
    updated_at: '2025-06-01T00:00:00.000Z',
  };
}

let dns: TestDnsServer;
let server: http.Server;
let base: string;
let deps: Services;
const requested: string[] = [];

/** What the loopback DNS provider answers at `/dc/v2/<domain>/settings`, per domain. */
const settings: Record<string, (res: http.ServerResponse) => void> = {};
const json = (body: unknown) => (res: http.ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  dns = await TestDnsServer.start();
  server = http.createServer((req, res) => {
    requested.push(req.url ?? '');
    const match = /^\/dc\/v2\/([^/]+)\/settings$/.exec(req.url ?? '');
    if (match && settings[match[1]]) return settings[match[1]](res);
    if (req.url === `/api${TEMPLATE}`) return json({})(res);
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  deps = {
    config: { DOMAIN_CONNECT_SCHEME: 'http', DOMAIN_CONNECT_PROVIDER_ID: 'mailroom.dev', DOMAIN_CONNECT_SERVICE_ID: 'email' },
    dns: new NodeDnsResolver([dns.address]),
    fetcher: new HttpFetcher({ allowLoopback: true }),
  } as unknown as Services;
});

afterAll(async () => {
  await dns.close();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  dns.clear();
  requested.length = 0;
  for (const key of Object.keys(settings)) delete settings[key];
});

/** A domain whose DNS provider publishes `_domainconnect` pointing at the loopback server. */
function provider(domain: string, answer: (res: http.ServerResponse) => void): SendingDomain {
  dns.set(`_domainconnect.${domain}`, 'TXT', [`${base}/dc`]);
  settings[domain] = answer;
  return sendingDomain(domain);
}

const goodSettings = (extra: Record<string, unknown> = {}) => ({
  providerId: 'dnsprovider.example',
  providerName: 'DnsProvider',
  providerDisplayName: 'DNS Provider Inc.',
  urlSyncUX: `http://${base}/sync/`,
  urlAPI: `http://${base}/api`,
  width: 750,
  height: 750,
  ...extra,
});

describe('a provider that supports Domain Connect', () => {
  test('is supported, with the provider name and a synchronous apply URL carrying every template variable', async () => {
    const domain = provider('good.example', json(goodSettings()));

    const result = await discoverDomainConnect(deps, domain);

    expect(result).toMatchObject({ supported: true, provider_name: 'DNS Provider Inc.' });
    const url = new URL(result.apply_url as string);
    expect(`${url.protocol}//${url.host}`).toBe(`http://${base}`);
    expect(url.pathname).toBe(`/sync${TEMPLATE}/apply`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      domain: 'good.example',
      dkim1: 'dk1abc',
      dkim2: 'dk2def',
      dkim3: 'dk3ghi',
      verification: TOKEN,
      spfhost: 'amazonses.com',
      rua: `d-${IDENTITY}@reply.mailroom.local`,
      feedbackhost: 'feedback-smtp.us-east-1.amazonses.com',
    });
    // A token with '+', '/' and '=' survives the query string intact.
    expect(result.apply_url).toContain(`verification=${encodeURIComponent(TOKEN)}`);
    expect(requested).toEqual(['/dc/v2/good.example/settings', `/api${TEMPLATE}`]);
  });

  test('is supported without a template check when the provider exposes no REST API (urlAPI)', async () => {
    const domain = provider('noapi.example', json(goodSettings({ urlAPI: undefined, providerDisplayName: undefined })));
    const result = await discoverDomainConnect(deps, domain);
    expect(result).toMatchObject({ supported: true, provider_name: 'DnsProvider' });
    expect(requested).toEqual(['/dc/v2/noapi.example/settings']);
  });
});

describe('a provider that does not support Domain Connect', () => {
  test('no _domainconnect TXT (NXDOMAIN)', async () => {
    await expect(discoverDomainConnect(deps, sendingDomain('plain.example'))).resolves.toEqual({ supported: false });
    expect(requested).toEqual([]);
  });

  test('the _domainconnect lookup fails (SERVFAIL)', async () => {
    dns.set('_domainconnect.broken.example', 'TXT', 'SERVFAIL');
    await expect(discoverDomainConnect(deps, sendingDomain('broken.example'))).resolves.toEqual({ supported: false });
  });

  test('the settings answer 404', async () => {
    const domain = provider('gone.example', (res) => res.writeHead(404).end());
    await expect(discoverDomainConnect(deps, domain)).resolves.toEqual({ supported: false });
    expect(requested).toEqual(['/dc/v2/gone.example/settings']);
  });

  test('the settings are not JSON', async () => {
    const domain = provider('html.example', (res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>parked</html>'));
    await expect(discoverDomainConnect(deps, domain)).resolves.toEqual({ supported: false });
  });

  test('the settings have no urlSyncUX', async () => {
    const domain = provider('async-only.example', json(goodSettings({ urlSyncUX: undefined })));
    await expect(discoverDomainConnect(deps, domain)).resolves.toEqual({ supported: false });
  });

  test('urlSyncUX is not an http(s) URL of the expected scheme', async () => {
    const domain = provider('odd.example', json(goodSettings({ urlSyncUX: 'javascript:alert(1)' })));
    await expect(discoverDomainConnect(deps, domain)).resolves.toEqual({ supported: false });
  });

  test('the provider says our template is not onboarded (template check 404)', async () => {
    const domain = provider('notemplate.example', json(goodSettings({ urlAPI: `http://${base}/other-api` })));
    await expect(discoverDomainConnect(deps, domain)).resolves.toEqual({ supported: false });
    expect(requested).toEqual(['/dc/v2/notemplate.example/settings', `/other-api${TEMPLATE}`]);
  });

  test('the settings are larger than 64 KB', async () => {
    const domain = provider('huge.example', json(goodSettings({ padding: 'x'.repeat(70 * 1024) })));
    await expect(discoverDomainConnect(deps, domain)).resolves.toEqual({ supported: false });
  });
});

describe('a domain whose stored records cannot fill the template', () => {
  test('is not offered an apply URL', async () => {
    const domain = provider('nodkim.example', json(goodSettings()));
    domain.dns_records = domain.dns_records.filter((r) => r.purpose !== 'dkim');
    await expect(discoverDomainConnect(deps, domain)).resolves.toEqual({ supported: false });
  });
});
