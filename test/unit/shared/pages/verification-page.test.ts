import vm from 'node:vm';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { DnsRecord, SendingDomain } from '../../../../shared/identities/domains/domain';
import { escapeHtml } from '../../../../shared/platform/pages/page-layout';
import { pageHeaders, renderErrorPage, renderNotFoundPage, renderVerificationPage } from '../../../../shared/identities/pages/verification-page';
import { pageView, verifyResult } from '../../../../shared/identities/pages/verification-view';

// The handler tests below run the real middy stack with the store and the service replaced.
jest.mock('../../../../composition/services', () => ({ services: () => ({ db: {} }) }));
jest.mock('../../../../shared/identities/domains/domain-repository', () => ({ findVerificationPage: jest.fn(), getDomain: jest.fn() }));
jest.mock('../../../../shared/identities/domains/domain-service', () => ({ checkDomain: jest.fn() }));

import { findVerificationPage, getDomain } from '../../../../shared/identities/domains/domain-repository';
import { checkDomain } from '../../../../shared/identities/domains/domain-service';
import { fakeRoutes } from '../../support/fake-routes';
import { services } from '../../../../composition/services';
import { apiHandler } from '../../../../shared/platform/http/api-handler';
import { handler } from '../../../../functions/pages/handler';

const PROJECT_ID = '6f0c1c9e-5d1b-4c55-9d7e-3b3f3d1a0b11';
const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';

function record(r: Partial<DnsRecord> & Pick<DnsRecord, 'record_type' | 'name' | 'value' | 'purpose'>): DnsRecord {
  return { id: `id-${r.name}-${r.record_type}`, status: 'not_set', ttl_hint: 300, last_checked_at: null, ...r };
}

function domain(overrides: Partial<SendingDomain> = {}): SendingDomain {
  return {
    project_id: PROJECT_ID,
    domain: 'example.com',
    identity_id: '0a9d7c3e-1111-4222-8333-944445555666',
    verification_status: 'pending',
    can_send: false,
    sender_profile_id: 'sender-secret-id',
    verification_token: 'SECRET-VERIFICATION-TOKEN',
    dkim_tokens: ['tok1'],
    dns_records: [
      record({ record_type: 'TXT', name: '_amazonses', value: 'tokenvalue=', purpose: 'provider_verification' }),
      record({ record_type: 'CNAME', name: 'tok1._domainkey', value: 'tok1.dkim.amazonses.com', purpose: 'dkim', ttl_hint: 1800 }),
      record({ record_type: 'TXT', name: '@', value: 'v=spf1 include:amazonses.com ~all', purpose: 'spf' }),
      record({ record_type: 'TXT', name: '_dmarc', value: 'v=DMARC1; p=none; rua=mailto:d-x@reports.example', purpose: 'dmarc' }),
      record({ record_type: 'MX', name: 'send', value: '10 feedback-smtp.us-east-1.amazonses.com', purpose: 'return_path' }),
    ],
    verification_page_token: TOKEN,
    external_key: 'customer-42',
    version: 3,
    check_count: 0,
    last_checked_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const NONCE = 'bm9uY2Utbm9uY2Utbm9uY2U=';

describe('escapeHtml', () => {
  test('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  test('escapes & first, so entities are not double-decoded', () => {
    expect(escapeHtml('&lt;')).toBe('&amp;lt;');
  });

  test('leaves plain text alone and stringifies non-strings', () => {
    expect(escapeHtml('v=spf1 include:amazonses.com ~all')).toBe('v=spf1 include:amazonses.com ~all');
    expect(escapeHtml(1800)).toBe('1800');
    expect(escapeHtml(undefined)).toBe('');
    expect(escapeHtml(null)).toBe('');
  });
});

/** The page without the `<wbr>` wrap hints it puts after dots in names and values. */
const plain = (html: string) => html.replace(/<wbr>/g, '');

describe('renderVerificationPage', () => {
  const page = plain(renderVerificationPage(pageView(domain()), NONCE));

  test('shows the domain, its status and every record with its full name and value', () => {
    expect(page).toContain('<span id="domain">example.com</span>');
    expect(page).toContain('data-status="pending">Pending</span>');
    for (const name of ['_amazonses.example.com', 'tok1._domainkey.example.com', '_dmarc.example.com', 'send.example.com']) {
      expect(page).toContain(`<code class="fqdn">${name}</code>`);
      expect(page).toContain(`data-copy="${name}"`);
    }
    // `@` is the domain itself.
    expect(page).toContain('<code class="fqdn">example.com</code>');
    expect(page).toContain('<code class="value">tok1.dkim.amazonses.com</code>');
    expect(page).toContain('data-copy="10 feedback-smtp.us-east-1.amazonses.com"');
    expect(page).toContain('<td data-label="TTL" class="ttl">1800</td>');
    expect(page.match(/<tr data-record=/g)).toHaveLength(5);
    expect(page.match(/class="copy"/g)).toHaveLength(10);
    expect(page).toContain('>Verify now</button>');
  });

  test('shows nothing else of the project', () => {
    for (const secret of [PROJECT_ID, 'sender-secret-id', 'SECRET-VERIFICATION-TOKEN', 'customer-42', TOKEN, 'id-_dmarc-TXT']) {
      expect(page).not.toContain(secret);
    }
    expect(pageView(domain())).toEqual({
      domain: 'example.com',
      verification_status: 'pending',
      can_send: false,
      records: expect.any(Array),
    });
    expect(Object.keys(pageView(domain()).records[0]).sort()).toEqual(['fqdn', 'name', 'record_type', 'status', 'ttl_hint', 'value']);
  });

  test('escapes every user-supplied value, in text and in attributes', () => {
    const evil = domain({
      domain: 'x"><script>alert(1)</script>.com',
      dns_records: [
        record({ record_type: 'TXT', name: '<img src=x onerror=alert(2)>', value: `"'><script>alert(3)</script>&`, purpose: 'spf' }),
      ],
    });
    const html = plain(renderVerificationPage(pageView(evil), NONCE));
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toMatch(/"'>/);
    const fqdnEscaped = '&lt;img src=x onerror=alert(2)&gt;.x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;.com';
    const valueEscaped = '&quot;&#39;&gt;&lt;script&gt;alert(3)&lt;/script&gt;&amp;';
    expect(html).toContain(`<code class="fqdn">${fqdnEscaped}</code>`);
    expect(html).toContain(`data-copy="${fqdnEscaped}"`);
    expect(html).toContain(`<code class="value">${valueEscaped}</code>`);
    expect(html).toContain(`data-copy="${valueEscaped}"`);
    expect(html).toContain('<title>Verify x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;.com</title>');
    // Only the page's own nonced script and style.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain(`<script nonce="${NONCE}">`);
    expect(html).toContain(`<style nonce="${NONCE}">`);
  });

  test('has no inline event handlers (the CSP would block them) and its script parses', () => {
    expect(page).not.toMatch(/\son[a-z]+=/i);
    const script = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    expect(script).toContain("addEventListener('click'");
    expect(() => new vm.Script(script)).not.toThrow();
  });

  test('long names and values may wrap after dots only', () => {
    const html = renderVerificationPage(pageView(domain()), NONCE);
    expect(html).toContain('<code class="fqdn">tok1.<wbr>_domainkey.<wbr>example.<wbr>com</code>');
    expect(html).toContain('data-copy="tok1._domainkey.example.com"');
  });

  test('says when a verified domain can send', () => {
    const html = renderVerificationPage(pageView(domain({ verification_status: 'verified', can_send: true })), NONCE);
    expect(html).toContain('data-status="verified">Verified</span>');
    expect(html).toContain('<span id="can-send" class="can-send">can send</span>');
  });
});

describe('verifyResult', () => {
  test('answers only the domain, its status and its records', () => {
    const result = verifyResult(domain({ verification_status: 'verified', can_send: true }));
    expect(Object.keys(result).sort()).toEqual(['can_send', 'dns_records', 'domain', 'verification_status']);
    expect(result.dns_records[2]).toEqual({ record_type: 'TXT', name: '@', fqdn: 'example.com', value: 'v=spf1 include:amazonses.com ~all', status: 'not_set' });
    expect(JSON.stringify(result)).not.toContain(PROJECT_ID);
  });
});

describe('error pages and headers', () => {
  test('the 404 page says the link is not valid, without any script', () => {
    const html = renderNotFoundPage(NONCE);
    expect(html).toContain('This verification link is not valid');
    expect(html).not.toContain('<script');
    expect(html).toMatch(/^<!doctype html>/);
  });

  test('the 500 page gives no details', () => {
    expect(renderErrorPage(NONCE)).toContain('Something went wrong');
  });

  test('the headers lock the page down to its own nonced script and style', () => {
    const headers = pageHeaders(NONCE);
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toContain("default-src 'none'");
    expect(headers['content-security-policy']).toContain(`script-src 'nonce-${NONCE}'`);
    expect(headers['content-security-policy']).toContain(`style-src 'nonce-${NONCE}'`);
    expect(headers['content-security-policy']).toContain("connect-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-store');
  });
});

// ---- The handler through apiHandler (HTML bodies go out as they are) ----

function event(method: string, path: string, token?: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { host: 'localhost' },
    pathParameters: token === undefined ? undefined : { token },
    requestContext: { requestId: 'req-1', http: { method, path } } as APIGatewayProxyEventV2['requestContext'],
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: 'req-1' } as Context;
type Lambda = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;
const call = (h: unknown, e: APIGatewayProxyEventV2) => (h as Lambda)(e, context);

describe('apiHandler with HTML bodies', () => {
  const custom = apiHandler('pages', fakeRoutes('public', {
    'GET /verify/{token}': async () => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<p>hi</p>' }),
    'POST /verify/{token}': async () => ({ status: 200, body: '<p>hi</p>' }),
    'GET /senders/confirm/{token}': async () => ({ status: 404, body: '' }),
    'POST /senders/confirm/{token}': async () => ({ status: 404, body: '' }),
  }), services);

  test('a string body with a text/html type is sent as is', async () => {
    const res = await call(custom, event('GET', '/verify/{token}', 't'));
    expect(res.body).toBe('<p>hi</p>');
    expect(res.headers?.['content-type']).toBe('text/html; charset=utf-8');
  });

  test('anything else is still JSON', async () => {
    const res = await call(custom, event('POST', '/verify/{token}', 't'));
    expect(res.body).toBe('"<p>hi</p>"');
    expect(res.headers?.['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('pages handler', () => {
  const findPage = findVerificationPage as jest.MockedFunction<typeof findVerificationPage>;
  const get = getDomain as jest.MockedFunction<typeof getDomain>;
  const check = checkDomain as jest.MockedFunction<typeof checkDomain>;

  beforeEach(() => {
    jest.resetAllMocks();
    findPage.mockImplementation(async (_db, token) => (token === TOKEN ? { project_id: PROJECT_ID, domain: 'example.com' } : undefined));
    get.mockImplementation(async (_db, projectId, name) => (projectId === PROJECT_ID && name === 'example.com' ? domain() : undefined));
    check.mockImplementation(async () => domain({ verification_status: 'verified', can_send: true }));
  });

  test('GET with a valid token answers the HTML page with its security headers', async () => {
    const res = await call(handler, event('GET', '/verify/{token}', TOKEN));
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers?.['x-frame-options']).toBe('DENY');
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers?.['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(res.body).toContain(`<script nonce="${nonce}">`);
    expect(plain(String(res.body))).toContain('<code class="fqdn">_dmarc.example.com</code>');
    expect(res.body).not.toContain(PROJECT_ID);
    expect(check).not.toHaveBeenCalled();
  });

  test('every response gets a fresh nonce', async () => {
    const a = await call(handler, event('GET', '/verify/{token}', TOKEN));
    const b = await call(handler, event('GET', '/verify/{token}', TOKEN));
    expect(a.headers?.['content-security-policy']).not.toBe(b.headers?.['content-security-policy']);
  });

  test.each([
    ['an unknown token', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ'],
    ['a malformed token', '../../etc'],
  ])('GET with %s answers the 404 HTML page', async (_label, token) => {
    const res = await call(handler, event('GET', '/verify/{token}', token));
    expect(res.statusCode).toBe(404);
    expect(res.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('This verification link is not valid');
  });

  test('a token whose domain now carries another token is not valid', async () => {
    get.mockImplementation(async () => domain({ verification_page_token: 'SomeOtherTokenSomeOtherToken0000' }));
    const res = await call(handler, event('GET', '/verify/{token}', TOKEN));
    expect(res.statusCode).toBe(404);
  });

  test('a store failure gives the HTML error page, never a stack', async () => {
    findPage.mockRejectedValue(new Error('boom at /secret/path.ts:1'));
    const res = await call(handler, event('GET', '/verify/{token}', TOKEN));
    expect(res.statusCode).toBe(500);
    expect(res.body).toContain('Something went wrong');
    expect(res.body).not.toContain('boom');
  });

  test('POST runs the verification and answers only the public fields', async () => {
    const res = await call(handler, event('POST', '/verify/{token}', TOKEN));
    expect(check).toHaveBeenCalledWith(expect.anything(), PROJECT_ID, 'example.com', { resetSpfAndDmarc: true });
    expect(res.statusCode).toBe(200);
    expect(res.headers?.['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(String(res.body));
    expect(body).toEqual(verifyResult(domain({ verification_status: 'verified', can_send: true })));
    expect(body.dns_records).toHaveLength(5);
  });

  test('POST with an unknown token is a 404 JSON error', async () => {
    const res = await call(handler, event('POST', '/verify/{token}', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ'));
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(String(res.body))).toEqual({ error: 'This verification link is not valid' });
    expect(check).not.toHaveBeenCalled();
  });
});
