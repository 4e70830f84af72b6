import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { fqdn } from '../../shared/identities/domains/dns-records';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * The public verification page (`/verify/{token}`) in the local cloud, driven in a real headless
 * Chromium: the page a domain owner opens from `verification_url`, with its Copy buttons and its
 * Verify button. The local SES identity emulator verifies a domain when asked about it, except
 * names starting with `fail.`, which fail.
 */

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = fs.existsSync(CHROMIUM);
if (!HAS_CHROMIUM) {
  console.warn(`Browser tests of the verification page skipped: ${CHROMIUM} is missing (apt-get install -y chromium).`);
}
const browserTest = HAS_CHROMIUM ? test : test.skip;

interface Registered {
  domain: string;
  url: string;
  records: { record_type: string; name: string; value: string; purpose: string; status: string }[];
}

let cloud: TestCloud;
let browser: Browser | undefined;

async function register(domain: string): Promise<Registered> {
  const res = await cloud.api('POST', '/domains/register', { body: { domain, sender_name: 'Owner', sender_email: `hello@${domain}` } });
  expect(res.status).toBe(201);
  // Published as its owner would, so that the page's Verify button can verify it.
  await cloud.publishDns(domain);
  const url = res.body.verification_url as string;
  expect(url).toMatch(/^http:\/\/localhost:\d+\/verify\/[A-Za-z0-9_-]{32}$/);
  return { domain, url, records: res.body.dns_records as Registered['records'] };
}

/** A fresh browser context (clipboard allowed for the cloud's origin) and a page that records console errors. */
async function openPage(url: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return { context, page, errors };
}

beforeAll(async () => {
  cloud = await startTestCloud();
  if (HAS_CHROMIUM) {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
}, CLOUD_TIMEOUT_MS);

describe('verification page over HTTP', () => {
  test('GET answers an HTML page with the security headers and only the domain and its records', async () => {
    const reg = await register('page-http.example.com');
    const res = await fetch(reg.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+'; connect-src 'self'/);
    const html = await res.text();
    expect(html).toContain('page-http.example.com');
    for (const r of reg.records) expect(html).toContain(fqdn(r.name, reg.domain));
    expect(html).not.toContain(cloud.seed.project_id);
    expect(html).not.toContain('hello@page-http.example.com');
    expect(html).not.toContain(cloud.seed.live_key);
  });

  test('POST answers the verification result with only the public fields', async () => {
    const reg = await register('page-post.example.com');
    const res = await fetch(reg.url, { method: 'POST' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['can_send', 'dns_records', 'domain', 'verification_status']);
    expect(body).toMatchObject({ domain: 'page-post.example.com', verification_status: 'verified', can_send: true });
    const records = body.dns_records as Record<string, unknown>[];
    expect(records).toHaveLength(8);
    for (const r of records) expect(Object.keys(r).sort()).toEqual(['fqdn', 'name', 'record_type', 'status', 'value']);
  });

  test('an unknown token: 404 HTML page on GET, 404 JSON on POST', async () => {
    const bad = `${cloud.baseUrl}/verify/ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ`;
    const get = await fetch(bad);
    expect(get.status).toBe(404);
    expect(get.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await get.text()).toContain('This verification link is not valid');
    const post = await fetch(bad, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(await post.json()).toEqual({ error: 'This verification link is not valid' });
  });
});

describe('verification page in a browser', () => {
  browserTest('shows the domain and its 8 records; Verify now verifies it in place', async () => {
    const reg = await register('page-ok.example.com');
    expect(reg.records).toHaveLength(8);
    const { context, page, errors } = await openPage(reg.url);
    try {
      await expect(page.locator('h1').textContent()).resolves.toBe('page-ok.example.com');
      await expect(page.locator('#domain-status').textContent()).resolves.toBe('Pending');
      const rows = page.locator('#records tbody tr');
      await expect(rows.count()).resolves.toBe(8);
      for (const [i, r] of reg.records.entries()) {
        const row = rows.nth(i);
        await expect(row.locator('code.fqdn').textContent()).resolves.toBe(fqdn(r.name, reg.domain));
        await expect(row.locator('code.value').textContent()).resolves.toBe(r.value);
        await expect(row.locator('.status').textContent()).resolves.toBe('Not set');
      }
      await expect(page.locator('#result').isVisible()).resolves.toBe(false);

      await page.getByRole('button', { name: 'Verify now' }).click();
      await page.locator('#result').waitFor({ state: 'visible' });
      await expect(page.locator('#result').textContent()).resolves.toBe('Verified: this domain can send.');
      await expect(page.locator('#domain-status').textContent()).resolves.toBe('Verified');
      await expect(page.locator('#can-send').isVisible()).resolves.toBe(true);
      // Identity, DKIM and return path come from the provider; SPF and DMARC wait for the DNS sweep.
      for (const [i, r] of reg.records.entries()) {
        const expected = r.purpose === 'spf' || r.purpose === 'dmarc' ? 'Not set' : 'Verified';
        await expect(rows.nth(i).locator('.status').textContent()).resolves.toBe(expected);
      }
      // The page and the API agree.
      const stored = await cloud.api('GET', '/domains/page-ok.example.com/status');
      expect(stored.body).toMatchObject({ verification_status: 'verified', can_send: true });

      await page.screenshot({ path: '/tmp/verification-page.png', fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  browserTest('a domain that fails verification shows Failed and says so', async () => {
    const reg = await register('fail.page.example.com');
    const { context, page, errors } = await openPage(reg.url);
    try {
      await page.getByRole('button', { name: 'Verify now' }).click();
      await page.locator('#result').waitFor({ state: 'visible' });
      await expect(page.locator('#result').textContent()).resolves.toMatch(/^Verification failed/);
      await expect(page.locator('#result').getAttribute('data-outcome')).resolves.toBe('failed');
      await expect(page.locator('#domain-status').textContent()).resolves.toBe('Failed');
      await expect(page.locator('#can-send').isVisible()).resolves.toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  browserTest('Copy buttons put the record value and its full name on the clipboard', async () => {
    const reg = await register('page-copy.example.com');
    const { context, page, errors } = await openPage(reg.url);
    try {
      const dmarc = reg.records.findIndex((r) => r.purpose === 'dmarc');
      const row = page.locator('#records tbody tr').nth(dmarc);
      const valueButton = row.locator('td[data-label="Value"] button.copy');
      const nameButton = row.locator('td[data-label="Name"] button.copy');
      await expect(valueButton.getAttribute('data-copy')).resolves.toBe(reg.records[dmarc].value);
      await expect(nameButton.getAttribute('data-copy')).resolves.toBe('_dmarc.page-copy.example.com');

      // The label changes when the clipboard write resolves, after the click has returned.
      await valueButton.click();
      await row.locator('td[data-label="Value"] button.copy', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(reg.records[dmarc].value);
      await nameButton.click();
      await row.locator('td[data-label="Name"] button.copy', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe('_dmarc.page-copy.example.com');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  browserTest('a bad token shows the 404 page', async () => {
    const context = await browser!.newContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(`${cloud.baseUrl}/verify/not-a-real-token-not-a-real-token`);
      expect(response?.status()).toBe(404);
      await expect(page.locator('h1').textContent()).resolves.toBe('This verification link is not valid');
    } finally {
      await context.close();
    }
  });
});
