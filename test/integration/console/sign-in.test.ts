import type { Browser } from 'playwright-core';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';
import { launchBrowser, openConsole, screenshot, seriousA11yViolations, WIDTHS } from './support/console-browser';

/** Signing in to the console in a real browser: the form, the session cookie, the frame, signing out. */

let cloud: TestCloud;
let browser: Browser;

beforeAll(async () => {
  [cloud, browser] = await Promise.all([startTestCloud({ workers: false }), launchBrowser()]);
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
}, CLOUD_TIMEOUT_MS);

describe('the sign-in form', () => {
  test('signs in with a project key, keeps the key out of script\'s reach, and signs out', async () => {
    for (const width of Object.values(WIDTHS)) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      try {
        await page.goto(`${cloud.baseUrl}/console`);
        await page.getByRole('heading', { name: 'Sign in to Mailroom' }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await screenshot(page, 'sign-in');

        // A wrong key: the API's message, no session.
        await page.getByLabel('API key').fill(`sk_live_${'B'.repeat(43)}`);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('alert').filter({ hasText: 'Invalid API key' }).waitFor();

        await page.getByLabel('API key').fill(cloud.seed.live_key);
        await page.getByRole('button', { name: 'Sign in' }).press('Enter');
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
        expect(await page.locator('.topbar').textContent()).toContain('Live');

        // The session is an HttpOnly cookie: the page's script cannot read it, nor does the key stay in storage.
        expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe('');
        const stored = await page.evaluate(() => {
          const g = globalThis as unknown as { localStorage: { length: number }; sessionStorage: { length: number } };
          return g.localStorage.length + g.sessionStorage.length;
        });
        expect(stored).toBe(0);
        const [cookie] = await context.cookies();
        expect(cookie).toMatchObject({ name: '__Host-mailroom_console', httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

        // A reload stays signed in; signing out returns to the form, and the old cookie no longer works.
        await page.reload();
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('heading', { name: 'Sign in to Mailroom' }).waitFor();
        const reused = await fetch(`${cloud.baseUrl}/console/session`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
        expect(reused.status).toBe(401);
        expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  test('works with the keyboard alone: sign in, skip to the content, move between pages, sign out', async () => {
    const context = await browser.newContext({ viewport: { width: WIDTHS.desktop, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(`${cloud.baseUrl}/console`);
      await page.getByRole('heading', { name: 'Sign in to Mailroom' }).waitFor();
      // The key field is the first stop; Enter submits.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id)).toBe('api-key');
      await page.keyboard.type(cloud.seed.live_key);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      const focused = () => page.evaluate(() => {
        const el = (globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string | null; id: string } } }).document.activeElement;
        return { tag: el.tagName, text: (el.textContent ?? '').trim(), id: el.id };
      });
      // Signed in, the focus is on the content.
      await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id === 'main');

      // The first Tab stop of the page is the skip link, which moves the focus to the content.
      await page.reload();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      const firstStop = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document;
        return doc.querySelector('a[href], button:not([disabled]), input, select, textarea, [tabindex]:not([tabindex="-1"])')?.textContent?.trim();
      });
      expect(firstStop).toBe('Skip to content');
      const before = page.url();
      await page.getByRole('link', { name: 'Skip to content' }).focus();
      await page.keyboard.press('Enter');
      expect((await focused()).id).toBe('main');
      // The hash is the router's: the skip link leaves the page where it is (it once went to `#main`, the first page).
      expect(page.url()).toBe(before);

      // Every link of the navigation (an <a href>, in the tab order) opens its page with Enter.
      for (const name of ['Activity', 'Domains', 'Templates', 'Campaigns', 'Automations', 'Audience', 'Suppressions', 'Webhooks', 'Send a test mail', 'Overview']) {
        const link = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });
        await link.focus();
        await page.keyboard.press('Enter');
        await link.and(page.locator('[aria-current="page"]')).waitFor();
        await page.getByRole('heading', { level: 1 }).first().waitFor();
      }
      await page.getByRole('button', { name: 'Sign out' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Sign in to Mailroom' }).waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);

  test('a test key\'s console says it shows test data only', async () => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.test_key });
    try {
      await tab.page.getByRole('note').filter({ hasText: 'Test key: you see test mail only' }).waitFor();
      expect(await tab.page.locator('.topbar').textContent()).toContain('Test key');
    } finally {
      await tab.close();
    }
  });

  test('a page cannot be framed by another site (frame-ancestors, X-Frame-Options)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      // A page of another origin (a data: URL) framing the console: Chromium refuses to render it.
      await page.goto(`data:text/html,<iframe id="f" src="${cloud.baseUrl}/console"></iframe>`);
      await page.waitForTimeout(500);
      const frame = page.frames().find((f) => f.url().startsWith(cloud.baseUrl));
      const rendered = frame ? await frame.locator('#app').count().catch(() => 0) : 0;
      expect(rendered).toBe(0);
    } finally {
      await context.close();
    }
  });
});
