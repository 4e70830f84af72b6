import fs from 'node:fs';
import { createMailroomClient } from '@mailroom/client';
import { chromium, type Browser } from 'playwright-core';
import { firstMail } from '../../clients/typescript/examples/first-mail';
import { routeTable as routes } from '../../functions/route-table';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The API described to machines, in the local cloud: the OpenAPI document at /openapi.json, the
 * reference page at /docs (in a real headless Chromium: it renders, and fetches nothing from
 * another origin), and the typed client of clients/typescript sending a mail.
 */

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = fs.existsSync(CHROMIUM);
const browserTest = HAS_CHROMIUM ? test : test.skip;

let cloud: TestCloud;
let browser: Browser | undefined;

beforeAll(async () => {
  cloud = await startTestCloud();
  if (HAS_CHROMIUM) {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
}, CLOUD_TIMEOUT_MS);

describe('GET /openapi.json', () => {
  test('answers the OpenAPI 3.1 document of every route, with this server as its server', async () => {
    const res = await fetch(`${cloud.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await res.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: cloud.baseUrl }]);
    for (const route of routes) expect(document.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
  });

  test('names this server whatever X-Forwarded-Host a caller sends', async () => {
    const res = await fetch(`${cloud.baseUrl}/openapi.json`, { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } });
    const document = (await res.json()) as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: cloud.baseUrl }]);
  });

  test('needs no key', async () => {
    const res = await fetch(`${cloud.baseUrl}/openapi.json`, { headers: { authorization: 'Bearer sk_dev_nope' } });
    expect(res.status).toBe(200);
  });
});

describe('GET /docs', () => {
  test('answers the reference page with a CSP that allows only this origin', async () => {
    const res = await fetch(`${cloud.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    expect(await res.text()).toContain('<rapi-doc spec-url="/openapi.json"');
  });

  test('serves the renderer gzipped to a client that takes gzip, plain to one that does not', async () => {
    const plain = await fetch(`${cloud.baseUrl}/docs/rapidoc.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const script = await plain.text();
    expect(script.length).toBeGreaterThan(500_000);
    expect(script).toContain('rapi-doc');
    const zipped = await fetch(`${cloud.baseUrl}/docs/rapidoc.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(await zipped.text()).toBe(script);
  });

  browserTest('renders the operations, the examples of their answers and the webhooks in a browser, with no CSP violation and nothing fetched from elsewhere', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    const foreign: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => void (new URL(r.url()).origin !== new URL(cloud.baseUrl).origin && !r.url().startsWith('data:') && foreign.push(r.url())));
    await page.goto(`${cloud.baseUrl}/docs`);
    // A function, not a string: Playwright evals a string predicate inside the page, which the
    // docs page's CSP (no 'unsafe-eval') rightly refuses. The test's TypeScript has no DOM types.
    // RapiDoc draws answers in elements with shadow roots of their own: the text of each is read too.
    const rendered = (needle: string) => {
      type Node = { textContent: string | null; querySelectorAll(s: string): Iterable<{ shadowRoot?: Node | null }> };
      const text = (node: Node): string => {
        let all = node.textContent ?? '';
        for (const element of node.querySelectorAll('*')) if (element.shadowRoot) all += text(element.shadowRoot);
        return all;
      };
      const root = (globalThis as unknown as { document: { querySelector(s: string): { shadowRoot?: Node | null } | null } }).document.querySelector('rapi-doc')?.shadowRoot;
      return root ? text(root).includes(needle) : false;
    };
    await page.waitForFunction(rendered, 'Send one email to up to 50 recipients', { timeout: 20_000, polling: 250 });
    // A typed answer with its example (POST /v1/send-email's 200), and the webhooks: each event, its headers and example.
    for (const needle of ['Email queued for sending', 'email.inbound', 'suppression.removed', 'X-Svc-Signature', 'msg_6c1f5a0e-2b7d-4c39-9e4a-8f1d2c3b4a5e']) {
      await page.waitForFunction(rendered, needle, { timeout: 5_000, polling: 250 });
    }
    await page.close();
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  }, 40_000);
});

describe('the typed client (clients/typescript)', () => {
  const client = () => createMailroomClient({ baseUrl: cloud.baseUrl, apiKey: cloud.seed.live_key });

  test('sends a mail and reads its activity', async () => {
    const { data, error, response } = await client().POST('/v1/send-email', {
      body: { recipient_email: 'ada@example.com', sender_email: cloud.seed.sender_email, subject: 'From the client', html_body: '<p>Hello</p>' },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data!.project_id).toBe(cloud.seed.project_id);
    const activity = await client().GET('/v1/activity/{id}', { params: { path: { id: data!.email_id! } } });
    expect(activity.response.status).toBe(200);
    expect(activity.data).toMatchObject({ data: { id: data!.email_id, recipient_primary: 'ada@example.com', subject: 'From the client' } });
  });

  test('the first-mail example (clients/typescript/examples) sends and reads the status of its activity', async () => {
    const result = await firstMail({ baseUrl: cloud.baseUrl, apiKey: cloud.seed.live_key, from: cloud.seed.sender_email, to: 'grace@example.com' });
    expect(result.emailId).toMatch(/^[0-9a-f-]{36}$/);
    expect(['queued', 'sent', 'delivered']).toContain(result.currentStatus);
  });

  test('answers the part-7 message as a typed error', async () => {
    const { data, error, response } = await client().POST('/v1/send-email', { body: { recipient_email: 'ada@example.com' } as never });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toEqual({ error: 'Missing required fields: recipient_email, sender_email, html_body' });
  });
});
