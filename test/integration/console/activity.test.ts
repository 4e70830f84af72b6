/**
 * The console's Overview, Activity and Send a test mail pages in Chromium against a test cloud: a
 * test mail sent from the form reaches `delivered` in its detail view; a bounced mail is found by
 * the status filter, and its suppression exists; the overview charts the sends; a test key sees
 * test mail only. Data is set up through the API; only the flow under test goes through the UI.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from '../support/test-cloud';
import { checkAtBothWidths, launchBrowser, openConsole } from './support/console-browser';

let cloud: TestCloud;
let browser: Browser;
/** The project's webhook receiver: answers 200 to every POST, so that each mail's events show as deliveries. */
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
});
/** A mark in every subject of this run, so that lists can be told apart from other files' mail. */
const run = randomUUID().slice(0, 8);

const BOUNCE = 'bounce@simulator.amazonses.com';
const SUCCESS = 'success@simulator.amazonses.com';

/** Sends a mail through the API and waits until its status is final; returns its id. */
async function sendAndSettle(key: string, overrides: Record<string, unknown>): Promise<string> {
  const res = await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, overrides) });
  expect(res.status).toBe(200);
  const id = res.body.email_id as string;
  await cloud.waitForActivity(id, key, (a) => !['queued', 'retrying', 'sent'].includes(a.current_status as string));
  return id;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cloud = await startTestCloud();
  const hook = await cloud.api('PATCH', '/v1/project', { body: { webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` } });
  expect(hook.status).toBe(200);
  browser = await launchBrowser();
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('Send a test mail, and watch it in Activity', () => {
  let delivered: string;

  test('the form sends from a sender of the project to a simulator address, and the mail\'s detail shows it reach delivered', async () => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash: '#/send' });
    try {
      const { page } = tab;
      const from = page.getByLabel('From');
      await page.locator('#send-from option', { hasText: cloud.seed.sender_email }).waitFor({ state: 'attached' });
      expect(await from.inputValue()).toBe(cloud.seed.sender_email);
      await page.getByRole('group', { name: 'SES\'s mailbox simulator' }).getByRole('button', { name: SUCCESS }).click();
      expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(SUCCESS);
      await page.getByLabel('Subject').fill(`Console test ${run}`);
      await page.getByRole('button', { name: 'Send the test mail' }).click();

      const link = page.getByRole('link', { name: 'watch its status in Activity' });
      await link.waitFor();
      delivered = (await page.locator('.notice.success code').textContent()) ?? '';
      expect(delivered).toMatch(/^[0-9a-f-]{36}$/);
      await link.click();
      await page.waitForURL((url) => url.hash === `#/activity/${delivered}`);
      // The detail polls until the status is final.
      await page.locator('.status-line .badge', { hasText: 'delivered' }).waitFor({ timeout: 15_000 });
      await page.getByText('Final status.').waitFor();
      await page.locator('.timeline li', { hasText: 'delivered' }).waitFor();
      expect(await page.locator('iframe.mail-preview').getAttribute('sandbox')).toBe('');
      await page.locator('.headers dd', { hasText: `Console test ${run}` }).waitFor();
      // Its webhooks: the project's receiver got the mail's events (they may arrive just after the status).
      const webhooks = page.getByRole('region', { name: 'Webhooks' });
      const deliveryRow = webhooks.locator('tbody tr', { hasText: 'email.delivery' });
      for (let i = 0; i < 20 && (await deliveryRow.count()) === 0; i++) {
        await webhooks.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForTimeout(300);
      }
      await deliveryRow.locator('.badge', { hasText: 'succeeded' }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
    const read = await cloud.api('GET', `/v1/activity/${delivered}`);
    expect(read.body.data).toMatchObject({ current_status: 'delivered', recipient_primary: SUCCESS, subject: `Console test ${run}`, sender_email: cloud.seed.sender_email });
  }, 30_000);

  test('a bounced mail is found by filtering Activity by status, and its suppression exists', async () => {
    const bounced = await sendAndSettle(cloud.seed.live_key, { recipient_email: BOUNCE, subject: `Bounce ${run}` });
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash: '#/activity' });
    try {
      const { page } = tab;
      await page.getByRole('link', { name: SUCCESS }).first().waitFor();
      await page.getByLabel('Status').selectOption('bounced');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL((url) => url.hash.includes('status=bounced'));
      // Only bounced mail is listed now.
      await page.getByRole('link', { name: SUCCESS }).first().waitFor({ state: 'detached' });
      expect(await page.locator('tbody .badge', { hasText: 'delivered' }).count()).toBe(0);
      await page.getByRole('link', { name: BOUNCE }).first().click();
      await page.waitForURL((url) => url.hash === `#/activity/${bounced}`);
      await page.getByRole('heading', { name: `Mail to ${BOUNCE}` }).waitFor();
      await page.locator('.status-line .badge', { hasText: 'bounced' }).waitFor();
      await page.locator('.timeline li', { hasText: 'Permanent' }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
    const suppression = await cloud.api('GET', `/v1/suppressions/${encodeURIComponent(BOUNCE)}`);
    expect(suppression.status).toBe(200);
  }, 30_000);

  test('the overview charts the sends and shows the totals and the rates in words', async () => {
    // The counters are written as SES's events arrive: wait until the API counts both mails.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const stats = await cloud.api('GET', '/v1/stats?interval=hour');
      const totals = (stats.body.data as { totals: Record<string, number> }).totals;
      if (totals.sent >= 2 && totals.delivered >= 1 && totals.bounced >= 1) break;
      if (Date.now() > deadline) throw new Error(`The stats never counted the sends: ${JSON.stringify(totals)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash: '#/overview?period=24h' });
    try {
      const { page } = tab;
      const sentCard = page.locator('.stat-card', { hasText: 'Sent' }).first();
      await sentCard.waitFor();
      expect(Number((await sentCard.locator('.stat').textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(2);
      expect(Number((await page.locator('.stat-card', { hasText: 'Permanent bounces' }).locator('.stat').textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
      // Three charts, each drawn by uPlot on a canvas.
      expect(await page.locator('figure.chart canvas').count()).toBeGreaterThanOrEqual(3);
      await page.getByRole('img', { name: /Sent and delivered: Sent \d+ in all/ }).waitFor();
      // One permanent bounce out of a few sends is far over SES's thresholds: said in words, not colour only.
      await page.locator('.rate', { hasText: 'Permanent-bounce rate' }).getByText('At pause threshold').waitFor();
      await page.getByRole('heading', { name: 'Domains needing attention' }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 30_000);

  test('a test key\'s console shows test mail only, and says so', async () => {
    await sendAndSettle(cloud.seed.test_key, { recipient_email: 'test-only@example.com', subject: `Test key ${run}` });
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.test_key, hash: '#/activity' });
    try {
      const { page } = tab;
      await page.getByText('Test key: you see test mail only').waitFor();
      await page.getByRole('link', { name: 'test-only@example.com' }).waitFor();
      // The live mails of this file are not listed.
      expect(await page.getByRole('link', { name: SUCCESS }).count()).toBe(0);
      expect(await page.getByRole('link', { name: BOUNCE }).count()).toBe(0);
      expect(await page.locator('tbody .badge', { hasText: 'test' }).count()).toBeGreaterThan(0);
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 30_000);

  test('each page passes the accessibility check and is photographed at 1280 and 390 pixels', async () => {
    const live = cloud.seed.live_key;
    await checkAtBothWidths('overview', async (width) => {
      const tab = await openConsole(browser, cloud, { apiKey: live, hash: '#/overview', width });
      await tab.page.locator('figure.chart canvas').first().waitFor();
      await tab.page.locator('.rate').first().waitFor();
      return tab;
    });
    await checkAtBothWidths('activity', async (width) => {
      const tab = await openConsole(browser, cloud, { apiKey: live, hash: '#/activity', width });
      await tab.page.locator('tbody tr').first().waitFor();
      return tab;
    });
    await checkAtBothWidths('activity-detail', async (width) => {
      const tab = await openConsole(browser, cloud, { apiKey: live, hash: `#/activity/${delivered}`, width });
      await tab.page.locator('.status-line .badge', { hasText: 'delivered' }).waitFor();
      await tab.page.locator('.timeline li', { hasText: 'delivered' }).waitFor();
      await tab.page.getByRole('region', { name: 'Webhooks' }).locator('tbody tr').first().waitFor();
      // The sandboxed frame has painted the mail before the photograph.
      await tab.page.frameLocator('iframe.mail-preview').getByRole('heading', { name: 'Hello' }).waitFor();
      return tab;
    });
    await checkAtBothWidths('send-test', async (width) => {
      const tab = await openConsole(browser, cloud, { apiKey: live, hash: '#/send', width });
      await tab.page.locator('#send-from option', { hasText: cloud.seed.sender_email }).waitFor({ state: 'attached' });
      return tab;
    });
  }, 60_000);
});
