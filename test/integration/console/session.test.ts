import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';

/**
 * Console sessions over HTTP: a key exchanged for an HttpOnly, SameSite=Strict cookie that stands
 * for the key on this origin, only with the console's header, and only while the key is valid.
 */

let cloud: TestCloud;
const CONSOLE = { 'x-mailroom-console': '1' };

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await cloud?.stop();
}, CLOUD_TIMEOUT_MS);

/** Signs in with a key; answers the status, the body and the cookie pair to send back. */
async function signIn(apiKey: string, headers: Record<string, string> = CONSOLE) {
  const res = await fetch(`${cloud.baseUrl}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ api_key: apiKey }) });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, setCookie, cookie: setCookie.split(';')[0] };
}

/** Calls the API with a cookie instead of a key. */
async function withCookie(method: string, path: string, cookie: string, headers: Record<string, string> = CONSOLE) {
  const res = await fetch(`${cloud.baseUrl}${path}`, { method, headers: { cookie, ...headers } });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}

describe('POST /console/session', () => {
  test('a project key signs in: 201 with the project and the mode, and a __Host- cookie that script cannot read and no other site sends', async () => {
    const res = await signIn(cloud.seed.live_key);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'project', mode: 'live', project: { id: cloud.seed.project_id } });
    expect(res.setCookie).toMatch(/^__Host-mailroom_console=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=28800; HttpOnly; Secure; SameSite=Strict$/);
    expect(Date.parse(res.body.expires_at as string) - Date.now()).toBeGreaterThan(8 * 3600_000 - 60_000);
  });

  test('a test key signs in as test mode; a partner key as its organization', async () => {
    expect((await signIn(cloud.seed.test_key)).body).toMatchObject({ kind: 'project', mode: 'test' });
    const partner = await signIn(cloud.seed.partner_key);
    expect(partner.status).toBe(201);
    expect(partner.body).toMatchObject({ kind: 'partner', organization: { id: expect.any(String) } });
  });

  test('an unknown key, a key of no known kind and a missing key are refused, and no cookie is set', async () => {
    for (const [key, status, message] of [
      [`sk_live_${'A'.repeat(43)}`, 401, 'Invalid API key'],
      ['pk_nothing', 401, 'Invalid API key prefix. Expected sk_proj_*, sk_live_* or sk_test_*.'],
      ['', 400, 'Missing required field: api_key'],
    ] as const) {
      const res = await signIn(key);
      expect({ key, status: res.status, error: res.body.error, cookie: res.setCookie }).toEqual({ key, status, error: message, cookie: '' });
    }
  });

  test('a malformed body is a 400 and an over-long or odd key a 401, never a 500', async () => {
    const post = async (body: string, type = 'application/json') => {
      const res = await fetch(`${cloud.baseUrl}/console/session`, { method: 'POST', headers: { 'content-type': type, ...CONSOLE }, body });
      return { status: res.status, cookie: res.headers.get('set-cookie') };
    };
    expect(await post('{"api_key":')).toEqual({ status: 400, cookie: null });
    expect(await post('api_key=sk_live_x', 'application/x-www-form-urlencoded')).toEqual({ status: 400, cookie: null });
    expect(await post(JSON.stringify({ api_key: 12 }))).toEqual({ status: 400, cookie: null });
    expect(await post(JSON.stringify([cloud.seed.live_key]))).toEqual({ status: 400, cookie: null });
    expect(await post(JSON.stringify({ api_key: cloud.seed.live_key, role: 'admin' }))).toEqual({ status: 400, cookie: null });
    expect(await post(JSON.stringify({ api_key: `sk_live_${'A'.repeat(100_000)}` }))).toEqual({ status: 401, cookie: null });
    expect(await post(JSON.stringify({ api_key: 'sk_live_\u0000\n' }))).toEqual({ status: 400, cookie: null });
  });

  test('without the X-Mailroom-Console header (a cross-site form post) sign-in is refused', async () => {
    const res = await signIn(cloud.seed.live_key, {});
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Cookie-authenticated requests must carry the X-Mailroom-Console header');
  });
});

describe('calling the API with the session cookie', () => {
  test('a project session reads project routes with the console header, as its key would', async () => {
    const { cookie } = await signIn(cloud.seed.live_key);
    const res = await withCookie('GET', '/v1/project', cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
  });

  test('without the console header the cookie is refused (CSRF): 401', async () => {
    const { cookie } = await signIn(cloud.seed.live_key);
    const res = await withCookie('GET', '/v1/project', cookie, {});
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Cookie-authenticated requests must carry the X-Mailroom-Console header');
  });

  test('an Authorization header wins over a cookie', async () => {
    const { cookie } = await signIn(cloud.seed.partner_key);
    const res = await fetch(`${cloud.baseUrl}/v1/project`, { headers: { cookie, ...CONSOLE, authorization: `Bearer ${cloud.seed.live_key}` } });
    expect(res.status).toBe(200);
  });

  test('a project session cannot call partner routes, nor a partner session project routes', async () => {
    const project = await signIn(cloud.seed.live_key);
    expect((await withCookie('GET', '/v1/partner/projects', project.cookie)).status).toBe(401);
    const partner = await signIn(cloud.seed.partner_key);
    expect((await withCookie('GET', '/v1/project', partner.cookie)).status).toBe(401);
    expect((await withCookie('GET', '/v1/partner/projects', partner.cookie)).status).toBe(200);
  });

  test('an over-long or odd cookie value is never looked up: the request is as one without a cookie', async () => {
    for (const value of ['x'.repeat(8000), 'a;b', '%00', '']) {
      const res = await withCookie('GET', '/v1/project', `__Host-mailroom_console=${value}`);
      expect({ value: value.slice(0, 10), status: res.status }).toEqual({ value: value.slice(0, 10), status: 401 });
    }
  });

  test('a cookie that names no session is refused with the console\'s message', async () => {
    const res = await withCookie('GET', '/v1/project', `__Host-mailroom_console=${'x'.repeat(43)}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('Console session expired or ended; sign in again');
  });
});

describe('GET and DELETE /console/session', () => {
  test('GET answers who the session is; after DELETE the cookie works nowhere and is cleared', async () => {
    const { cookie } = await signIn(cloud.seed.live_key);
    const read = await withCookie('GET', '/console/session', cookie);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ kind: 'project', mode: 'live', project: { id: cloud.seed.project_id } });

    const end = await withCookie('DELETE', '/console/session', cookie);
    expect(end.status).toBe(204);
    expect(end.headers.get('set-cookie')).toMatch(/^__Host-mailroom_console=; Path=\/; Max-Age=0/);
    expect((await withCookie('GET', '/console/session', cookie)).status).toBe(401);
    expect((await withCookie('GET', '/v1/project', cookie)).status).toBe(401);
  });

  test('GET without a cookie: 401', async () => {
    const res = await fetch(`${cloud.baseUrl}/console/session`);
    expect(res.status).toBe(401);
  });
});

describe('a rotated key ends its sessions', () => {
  test('after the partner rotates the project\'s test key, the session made from the old key is refused', async () => {
    const { cookie } = await signIn(cloud.seed.test_key);
    expect((await withCookie('GET', '/v1/project', cookie)).status).toBe(200);
    const rotated = await cloud.api('POST', `/v1/partner/projects/${cloud.seed.project_id}/api-key/rotate`, { key: cloud.seed.partner_key, body: { mode: 'test' } });
    expect(rotated.status).toBe(200);
    expect((await withCookie('GET', '/v1/project', cookie)).status).toBe(401);
    expect((await withCookie('GET', '/console/session', cookie)).status).toBe(401);
    expect((await signIn(cloud.seed.test_key)).status).toBe(401);
    expect((await signIn(rotated.body.api_key as string)).status).toBe(201);
  });
});

describe('GET /console and its files', () => {
  test('the page names its files by hash, under a CSP with no inline script, never framed', async () => {
    const res = await fetch(`${cloud.baseUrl}/console`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' http:\/\/127\.0\.0\.1:\d+; base-uri 'none'; form-action 'self'; frame-ancestors 'none'/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const js = /src="(\/console\/assets\/app\.js\?v=[0-9a-f]{16})"/.exec(html)?.[1];
    const css = /href="(\/console\/assets\/app\.css\?v=[0-9a-f]{16})"/.exec(html)?.[1];
    expect(js && css).toBeTruthy();

    const script = await fetch(`${cloud.baseUrl}${js}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await script.text()).length).toBeGreaterThan(1000);
    const stale = await fetch(`${cloud.baseUrl}/console/assets/app.css?v=0000000000000000`);
    expect(stale.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${cloud.baseUrl}/console/assets/manifest.json`)).status).toBe(404);
    expect((await fetch(`${cloud.baseUrl}/console/assets/..%2F..%2Fpackage.json`)).status).toBe(404);
  });
});
