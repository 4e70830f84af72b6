/**
 * The console's browser tests: Debian's Chromium driven by playwright-core against a test cloud.
 * A page is signed in through the API's own sign-in route (the cookie lands in the page's
 * context); the sign-in form itself is tested once, in sign-in.test.ts. Every page is checked with
 * axe-core and photographed at both widths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestCloud } from '../../support/test-cloud';

export const CHROMIUM = '/usr/bin/chromium';

/** Chromium's flags for a headless run in a container with no network. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Where screenshots go (looked at by people; not committed: .local is ignored). */
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../../../.local/console-screenshots');

/** The two widths every page is looked at: a laptop and a phone. */
export const WIDTHS = { desktop: 1280, phone: 390 } as const;

/** Starts the browser of a test file. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run installs it)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A console tab and what went wrong in it (console errors, page errors, CSP refusals). */
export interface ConsoleTab {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly errors: string[];
  close(): Promise<void>;
}

/**
 * Opens the console at `hash` (`#/activity`) signed in with `apiKey`: the key is exchanged for the
 * session cookie by POST /console/session in the tab's own cookie jar, as the sign-in form does.
 */
export async function openConsole(browser: Browser, cloud: TestCloud, options: { apiKey: string; hash?: string; width?: number }): Promise<ConsoleTab> {
  const context = await browser.newContext({ viewport: { width: options.width ?? WIDTHS.desktop, height: 900 }, baseURL: cloud.baseUrl });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: cloud.baseUrl });
  const signIn = await context.request.post('/console/session', { data: { api_key: options.apiKey }, headers: { 'X-Mailroom-Console': '1' } });
  if (signIn.status() !== 201) throw new Error(`Sign-in answered ${signIn.status()}: ${await signIn.text()}`);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`/console${options.hash ?? ''}`);
  await page.locator('main#main').waitFor();
  return { context, page, errors, close: () => context.close() };
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One axe-core violation as a test prints it. */
export interface A11yViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now. axe is
 * evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern.
 */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    const page = globalThis as unknown as {
      document: unknown;
      axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> };
    };
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Saves a full-page screenshot as `<name>-<width>.png` under SCREENSHOT_DIR; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SCREENSHOT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Looks at a page at both widths: no serious or critical axe violation, and a screenshot of each.
 * `open` opens the view in a tab of the given width (and waits for what it must show).
 */
export async function checkAtBothWidths(name: string, open: (width: number) => Promise<ConsoleTab>): Promise<void> {
  for (const width of Object.values(WIDTHS)) {
    const tab = await open(width);
    try {
      expect({ page: name, width, violations: await seriousA11yViolations(tab.page) }).toEqual({ page: name, width, violations: [] });
      await screenshot(tab.page, name);
      // Nothing refused by the page's CSP, no script error.
      expect({ page: name, width, errors: tab.errors }).toEqual({ page: name, width, errors: [] });
    } finally {
      await tab.close();
    }
  }
}
