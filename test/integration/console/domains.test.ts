/**
 * The console's Domains, Suppressions and Webhooks pages in a real browser against a test cloud:
 * a domain registered in the form, published locally and verified; a suppression added, found and
 * removed; a webhook URL set, a failed delivery redelivered, the signing secret rotated. Each page
 * is checked with axe-core and photographed at 1280 and 390 pixels.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from '../support/test-cloud';
import { checkAtBothWidths, launchBrowser, openConsole, screenshot } from './support/console-browser';

/** A webhook receiver on loopback: answers 500 to its first POST, then 200. */
class Receiver {
  readonly posts: { id: string; status: number; body: Record<string, unknown> }[] = [];
  private server!: http.Server;
  url = '';

  async start() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = this.posts.length === 0 ? 500 : 200;
        this.posts.push({ id: String(req.headers['webhook-id']), status, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver down');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

let cloud: TestCloud;
let browser: Browser;
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  [cloud, browser] = await Promise.all([startTestCloud(), launchBrowser()]);
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
  await receiver.stop();
});

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const open = (hash: string, width?: number) => openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash, width });
/** Clicks `button` until `done` shows (a list the worker fills a moment later). */
async function refreshUntil(page: Page, button: string, done: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Still not there after ${timeoutMs} ms`);
    await page.getByRole('button', { name: button, exact: true }).click();
    await page.waitForTimeout(300);
  }
}

describe('Domains: register a domain, publish its records locally and see it verify', () => {
  test('the form registers it, its view shows the records to copy, and Verify now verifies it once they are published', async () => {
    const domain = `console-${unique()}.example.com`;
    const tab = await open('#/domains');
    try {
      const { page } = tab;
      await page.getByRole('textbox', { name: 'Domain', exact: true }).fill(domain);
      await page.getByRole('textbox', { name: 'Sender name' }).fill('Console Test');
      await page.getByRole('textbox', { name: 'Sender address' }).fill(`news@${domain}`);
      await page.getByRole('button', { name: 'Register' }).click();

      await page.getByRole('heading', { level: 1, name: domain }).waitFor();
      const records = page.getByRole('table', { name: `DNS records of ${domain}` });
      await records.waitFor();
      expect(await records.getByRole('row').count()).toBe(9); // the heading and part 2's 8 records
      await records.getByRole('row').nth(1).getByRole('cell').nth(1).getByText(`_amazonses.${domain}`).waitFor();
      expect(await records.getByRole('button', { name: /^Copy name: / }).count()).toBe(8);
      expect(await records.getByRole('button', { name: /^Copy value: / }).count()).toBe(8);
      // A copy button puts the full name on the clipboard.
      await records.getByRole('button', { name: `Copy name: _amazonses.${domain}` }).click();
      // (The test files compile without the DOM's types: the page's globals are named through globalThis.)
      const clipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
      expect(await page.evaluate(clipboard)).toBe(`_amazonses.${domain}`);
      await page.getByRole('table', { name: 'Senders on this domain' }).getByText(`news@${domain}`).waitFor();

      // The local DNS has no Domain Connect provider: the records are copied by hand.
      await page.getByRole('button', { name: 'Check for one-click setup' }).click();
      await page.getByRole('status').filter({ hasText: 'offers no one-click setup' }).waitFor();

      // Not published yet: still pending.
      await page.getByRole('button', { name: 'Verify now' }).click();
      await page.getByRole('status').filter({ hasText: 'Still pending' }).waitFor();

      await cloud.publishDns(domain);
      await page.getByRole('button', { name: 'Verify now' }).click();
      await page.getByRole('status').filter({ hasText: `Verified: ${domain} can send.` }).waitFor();
      await page.locator('.page-header .badge', { hasText: 'verified' }).waitFor();
      expect((await cloud.api('GET', `/domains/${domain}/status`)).body).toMatchObject({ verification_status: 'verified', can_send: true });

      // The reply domain is set up from the view and shows its MX record.
      await page.getByRole('button', { name: 'Set up reply domain' }).click();
      await page.getByRole('table', { name: `Records of reply.${domain}` }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }

    await checkAtBothWidths('domains-list', async (width) => {
      const t = await open('#/domains', width);
      await t.page.getByRole('link', { name: domain }).waitFor();
      return t;
    });
    await checkAtBothWidths('domain-view', async (width) => {
      const t = await open(`#/domains/${domain}`, width);
      await t.page.getByRole('table', { name: `DNS records of ${domain}` }).waitFor();
      await t.page.getByRole('heading', { name: 'Health' }).waitFor();
      return t;
    });
  }, 60_000);
});

describe('Suppressions: add, search, remove', () => {
  test('an address added in the form is found by searching its start, and removed after a confirmation', async () => {
    const email = `blocked-${unique()}@example.org`;
    // Others on the list, so the search has something to leave out.
    await cloud.api('POST', '/v1/suppressions', { body: { emails: [`other-${unique()}@example.org`, `third-${unique()}@example.net`], description: 'Asked by phone' } });
    const tab = await open('#/suppressions');
    try {
      const { page } = tab;
      await page.getByRole('textbox', { name: 'Addresses' }).fill(email);
      await page.getByRole('textbox', { name: 'Description (optional)' }).fill('Asked not to be mailed');
      await page.getByRole('button', { name: 'Suppress' }).click();
      await page.getByRole('status').filter({ hasText: `Added ${email}.` }).waitFor();
      expect((await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(email)}`)).body.data).toMatchObject({ email, reason: 'manual', description: 'Asked not to be mailed' });

      await page.getByRole('searchbox', { name: 'Address starts with' }).fill(email.slice(0, 12).toUpperCase());
      await page.getByRole('button', { name: 'Search' }).click();
      const table = page.getByRole('table', { name: 'Suppressed addresses' });
      await page.waitForURL(/search=/);
      await table.getByRole('row').nth(1).getByText(email).waitFor();
      // The searched page replaces the unfiltered one once its answer arrives: the heading and the one match.
      for (let i = 0; i < 50 && (await table.getByRole('row').count()) !== 2; i++) await page.waitForTimeout(100);
      expect(await table.getByRole('row').count()).toBe(2);

      await table.getByRole('button', { name: `Remove ${email}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove from the suppression list?' });
      await dialog.waitFor();
      // Cancel first: nothing is removed.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect((await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(email)}`)).status).toBe(200);

      await table.getByRole('button', { name: `Remove ${email}` }).click();
      await dialog.waitFor();
      await screenshot(page, 'suppressions-remove-dialog');
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('status').filter({ hasText: `${email} was removed` }).waitFor();
      await page.getByText('No suppressed address matches.').waitFor();
      expect((await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(email)}`)).status).toBe(404);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }

    await checkAtBothWidths('suppressions', async (width) => {
      const t = await open('#/suppressions', width);
      await t.page.getByRole('table', { name: 'Suppressed addresses' }).waitFor();
      return t;
    });
  }, 60_000);
});

describe('Webhooks: a URL, a failed delivery redelivered, the secret rotated', () => {
  test('the live URL set in the form receives the events of a send; the failure shows and its redelivery succeeds', async () => {
    const tab = await open('#/webhooks');
    try {
      const { page } = tab;
      await page.getByRole('textbox', { name: 'Live URL' }).fill(receiver.url);
      await page.getByRole('button', { name: 'Save URLs' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(((await cloud.api('GET', '/v1/project')).body.project as Record<string, unknown>).webhook_url).toBe(receiver.url);

      const sent = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: `reader-${unique()}@example.com` }) });
      expect(sent.status).toBe(200);

      await page.getByRole('combobox', { name: 'Outcome' }).selectOption('failed');
      await page.waitForURL(/outcome=failed/);
      const table = page.getByRole('table', { name: 'Webhook delivery attempts' });
      await refreshUntil(page, 'Refresh', async () => (await table.count()) > 0 && (await table.getByRole('row').count()) > 1);
      const failedRow = table.getByRole('row').nth(1);
      await failedRow.getByText('failed').waitFor();
      await failedRow.getByRole('cell', { name: '500', exact: true }).waitFor();
      await failedRow.locator('.answer-error', { hasText: 'HTTP 500' }).waitFor();
      const failed = receiver.posts[0];
      expect(failed.status).toBe(500);

      await failedRow.getByRole('button', { name: /^Redeliver / }).click();
      await page.getByRole('status').filter({ hasText: /Redelivery msg_\S+ succeeded: the receiver answered 200/ }).waitFor({ timeout: 20_000 });
      const again = receiver.posts.find((p) => p.id !== failed.id && JSON.stringify(p.body) === JSON.stringify(failed.body));
      expect(again).toMatchObject({ status: 200 });
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 60_000);

  test('a test key sees the URLs read-only (live configuration) and reads the dev slot\'s own secret', async () => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.test_key, hash: '#/webhooks' });
    try {
      const { page } = tab;
      await page.getByRole('status').filter({ hasText: 'only the live key can change them' }).waitFor();
      expect(await page.getByRole('textbox', { name: 'Live URL' }).getAttribute('readonly')).not.toBeNull();
      expect(await page.getByRole('button', { name: 'Save URLs' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Reveal' }).click();
      await page.getByRole('button', { name: 'Hide' }).waitFor();
      const dev = (await page.getByTestId('webhook-secret').textContent()) ?? '';
      expect(dev).toBe(((await cloud.api('GET', '/v1/webhooks/secret', { key: cloud.seed.test_key })).body as { secret: string }).secret);
      expect(dev).not.toBe(((await cloud.api('GET', '/v1/webhooks/secret')).body as { secret: string }).secret);
      await page.getByRole('table', { name: 'Deliveries that failed for good' }).or(page.getByText('No delivery has failed for good.')).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  test('Reveal shows the secret; Rotate asks first, then shows a different one, which the API now gives', async () => {
    const tab = await open('#/webhooks');
    try {
      const { page } = tab;
      const secret = page.getByTestId('webhook-secret');
      await page.getByRole('button', { name: 'Reveal' }).click();
      await page.getByRole('button', { name: 'Hide' }).waitFor();
      const before = (await secret.textContent()) ?? '';
      expect(before).toMatch(/^whsec_/);
      expect(before).toBe(((await cloud.api('GET', '/v1/webhooks/secret')).body as { secret: string }).secret);

      await page.getByRole('button', { name: 'Rotate…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rotate the live signing secret?' });
      await dialog.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('status').filter({ hasText: 'Rotated' }).waitFor();
      // The new secret and the notice come in the same render.
      const after = (await secret.textContent()) ?? '';
      expect(after).not.toBe(before);
      expect(after).toBe(((await cloud.api('GET', '/v1/webhooks/secret')).body as { secret: string }).secret);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }

    await checkAtBothWidths('webhooks', async (width) => {
      const t = await open('#/webhooks', width);
      await t.page.getByRole('table', { name: 'Webhook delivery attempts' }).or(t.page.getByText('No delivery in the last 3 days.')).waitFor();
      return t;
    });
  }, 60_000);
});
