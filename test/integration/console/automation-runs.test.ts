import type { Browser, Page } from 'playwright-core';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';
import { checkAtBothWidths, launchBrowser, openConsole, screenshot, type ConsoleTab } from './support/console-browser';

/**
 * The runs side of the console's Automations pages in Chromium against a test cloud: an active
 * automation (a template and the seeded sender, set up through the API) takes two leads through
 * the "Enroll leads" form; the engine runs them (the page is refreshed until it has: bounded); the
 * Runs card lists them with their state, current step and due time, filtered by state; a run's page
 * shows its timeline, its mail linked to the mail's activity page, its branch; the figures show the
 * run counts and each step's; and a paused automation's 409 shows verbatim in the form.
 */

jest.setTimeout(120_000);

type Data = Record<string, any>;
let cloud: TestCloud;
let browser: Browser;
const tag = Date.now().toString(36);
const ada = `ada-${tag}@runs.example`;
const alan = `alan-${tag}@runs.example`;
const nobody = `nobody-${tag}@runs.example`;
let automationId: string;
let runId: string;
const tabs: ConsoleTab[] = [];

/** How long the engine gets to run the enrolled leads' first steps (it takes a second or two locally). */
const ENGINE_MS = 30_000;

/** The API's answer, refused loudly when it is not the status expected. */
async function call(method: string, path: string, body: unknown, status: number): Promise<Data> {
  const res = await cloud.api(method, path, { body });
  if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Data;
}

/** A console tab signed in with the live key, closed after the file. */
async function open(hash: string, width?: number): Promise<Page> {
  const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash, width });
  tabs.push(tab);
  return tab.page;
}

/** Clicks `refresh` until `ready` holds, as a person waiting for the engine would; fails after ENGINE_MS. */
async function refreshUntil(page: Page, refresh: string, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ENGINE_MS;
  for (;;) {
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`Still not shown after ${ENGINE_MS} ms of refreshing`);
    await page.waitForTimeout(500);
    await page.getByRole('region', { name: refresh, exact: true }).getByRole('button', { name: 'Refresh' }).click();
  }
}

beforeAll(async () => {
  cloud = await startTestCloud();
  browser = await launchBrowser();
  const senders = await call('GET', '/domains/senders', undefined, 200);
  const senderId = (senders.data as { id: string; from_email: string }[]).find((s) => s.from_email === cloud.seed.sender_email)!.id;
  const template = await call('POST', '/v1/templates', { name: `Welcome ${tag}`, subject: 'Welcome, {{first_name}}', html: '<p>Welcome aboard</p>' }, 201);
  await call('POST', '/v1/leads', { leads: [{ email: ada, data: { first_name: 'Ada' } }, { email: alan, data: { first_name: 'Alan' } }] }, 201);
  const created = await call(
    'POST',
    '/v1/automations',
    {
      name: `Onboarding ${tag}`,
      trigger: { type: 'manual' },
      steps: [
        { id: 'welcome', type: 'send_email', template_id: template.data.id, sender_profile_id: senderId, next: 'opened_welcome' },
        { id: 'opened_welcome', type: 'condition', condition: { opened: 'welcome' }, yes: null, no: 'tag_them' },
        { id: 'tag_them', type: 'update_lead', add_tags: ['onboarding'], next: 'wait_2_days' },
        { id: 'wait_2_days', type: 'wait', duration: { days: 2 }, next: null },
      ],
    },
    201,
  );
  automationId = created.data.id as string;
  await call('POST', `/v1/automations/${automationId}/activate`, undefined, 200);
}, CLOUD_TIMEOUT_MS + 60_000);

afterAll(async () => {
  for (const tab of tabs) await tab.close().catch(() => undefined);
  await browser?.close();
  await cloud?.stop();
});

describe('Automations: enroll leads, their runs, a run\'s timeline and the figures', () => {
  test('the form enrolls two leads and names the address no lead has', async () => {
    const page = await open(`#/automations/${automationId}`);
    const form = page.getByRole('region', { name: 'Enroll leads' });
    await form.getByLabel('Emails or lead ids').fill(`${ada}\n\n  ${alan}  \n${nobody}\n`);
    await form.getByText('3 leads named').waitFor();
    await form.getByRole('button', { name: 'Enroll' }).click();
    const answer = form.getByTestId('enroll-answer');
    await answer.waitFor();
    expect(await answer.textContent()).toMatch(/Enrolled: 2 .*already enrolled .*: 0 .*not eligible .*: 0 .*not found: 1/);
    expect(await form.getByRole('list', { name: 'Not found' }).textContent()).toBe(nobody);
  });

  test('the Runs card shows both runs waiting at the wait step, filters by state, and links each to its step and its page', async () => {
    const page = await open(`#/automations/${automationId}`);
    const runs = page.getByRole('region', { name: 'Runs', exact: true });
    const table = runs.getByRole('table', { name: 'Runs', exact: true });
    await refreshUntil(page, 'Runs', async () => (await table.getByRole('row').filter({ hasText: 'waiting' }).count()) === 2);
    const adaRow = table.getByRole('row').filter({ hasText: ada });
    expect(await adaRow.textContent()).toMatch(/waiting.*wait_2_days/);
    // Due two days after the wait began; no end reason while it waits.
    expect(await adaRow.locator('td').nth(4).textContent()).not.toBe('—');
    expect(await adaRow.locator('td').nth(5).textContent()).toBe('—');

    await runs.getByLabel('State').selectOption('completed');
    await runs.getByText('No completed run on this page.').waitFor();
    await runs.getByLabel('State').selectOption('waiting');
    const waiting = runs.getByRole('table', { name: 'Runs: waiting' });
    await waiting.getByRole('link', { name: `Run of ${alan}` }).waitFor();
    expect(await waiting.getByRole('row').count()).toBe(3);
    expect(await runs.getByRole('button', { name: 'Newest' }).isDisabled()).toBe(true);
    expect(await runs.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await waiting.getByRole('row').filter({ hasText: ada }).getByRole('link', { name: 'Step wait_2_days in the flow' }).click();
    await page.waitForURL(/\?step=wait_2_days$/);
    await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('data-step') === 'wait_2_days');

    await waiting.getByRole('link', { name: `Run of ${ada}` }).click();
    await page.waitForURL(/#\/automations\/[0-9a-f-]{36}\/runs\/[0-9a-f-]{36}$/);
    runId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: `Run of ${ada}` }).waitFor();
  });

  test('a run\'s page: its fields and its timeline, the mail linked to its activity page, the branch taken', async () => {
    const page = await open(`#/automations/${automationId}/runs/${runId}`);
    await page.getByRole('heading', { name: `Run of ${ada}` }).waitFor();
    const fields = page.getByRole('region', { name: 'Run', exact: true });
    expect(await fields.locator('.progress-line').textContent()).toMatch(/waiting\s*at step wait_2_days/);
    expect(await fields.getByRole('link', { name: ada }).getAttribute('href')).toMatch(/^#\/audience\/leads\/[0-9a-f-]{36}$/);

    const timeline = page.getByRole('list', { name: 'Steps of this run, oldest first' });
    const entries = timeline.locator(':scope > li');
    expect(await entries.evaluateAll((li) => li.map((l) => l.getAttribute('data-seq')))).toEqual(['1', '2', '3', '4']);
    const texts = await entries.allTextContents();
    expect(texts[0]).toMatch(/#1\s*step welcome\s*Send a mail.*Mail sent.*The mail \(activity [0-9a-f-]{36}\).*then step opened_welcome/);
    expect(texts[1]).toMatch(/#2\s*step opened_welcome\s*Condition.*Took the No way.*then step tag_them/);
    expect(texts[2]).toMatch(/#3\s*step tag_them\s*Update the lead.*Lead updated \(tags added: onboarding\).*then step wait_2_days/);
    expect(texts[3]).toMatch(/#4\s*step wait_2_days\s*Wait.*Waiting until .*the wait decides the next step/);

    const mail = entries.nth(0).getByRole('link', { name: 'The mail' });
    const activityHref = (await mail.getAttribute('href'))!;
    expect(activityHref).toMatch(/^#\/activity\/[0-9a-f-]{36}$/);
    await screenshot(page, 'automation-run');
    await mail.click();
    await page.waitForURL(new RegExp(`${activityHref.replace(/[/]/g, '\\/')}$`));
    await page.getByText('Welcome, Ada').first().waitFor();
  });

  test('the figures: runs by state, and each step\'s counts in its block of the flow', async () => {
    const page = await open(`#/automations/${automationId}`);
    const counts = page.locator('dl[aria-label="Runs by state"]');
    const figure = async (label: string) => (await counts.locator('.stat-box').filter({ hasText: label }).locator('dd').textContent())?.trim();
    const welcome = page.locator('dl[aria-label="Figures of step welcome"]');
    const stepFigure = async (label: string) => (await welcome.locator('div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd').textContent())?.trim();
    // The counters are added once per engine invocation: refreshed until they have all arrived.
    await refreshUntil(page, 'Runs by state', async () => (await figure('Entered')) === '2' && (await figure('Waiting')) === '2' && (await stepFigure('Sent')) === '2');
    expect([await figure('Active'), await figure('Completed'), await figure('Exited'), await figure('Failed')]).toEqual(['0', '0', '0', '0']);
    expect([await stepFigure('Entered'), await stepFigure('Completed'), await stepFigure('Waiting'), await stepFigure('Failed')]).toEqual(['2', '2', '0', '0']);
    const wait = page.locator('dl[aria-label="Figures of step wait_2_days"]');
    expect(await wait.textContent()).toMatch(/Entered2Waiting2Completed0/);
    // Only a mail step shows its mails.
    expect(await wait.getByText('Sent').count()).toBe(0);
    expect(await welcome.textContent()).toMatch(/Open rate.*Click rate/);
  });

  test('the enrolment of a paused automation shows the API\'s 409 verbatim', async () => {
    const page = await open(`#/automations/${automationId}`);
    const form = page.getByRole('region', { name: 'Enroll leads' });
    await form.getByLabel('Emails or lead ids').fill(ada);
    // Paused elsewhere (another tab, a colleague) after this page was read.
    await call('POST', `/v1/automations/${automationId}/pause`, undefined, 200);
    await form.getByRole('button', { name: 'Enroll' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('Not enrolled: Automation is pausedINVALID_STATE');
    await call('POST', `/v1/automations/${automationId}/activate`, undefined, 200);
  });
});

describe('Every view at 1280 and 390 pixels: no serious accessibility violation, a screenshot each', () => {
  const at = (hash: string, ready: (page: Page) => Promise<unknown>) => async (width: number) => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash, width });
    await ready(tab.page);
    return tab;
  };

  test('an automation with its figures, enrolment and runs; a run and its timeline', async () => {
    await checkAtBothWidths(
      'automation-runs',
      at(`#/automations/${automationId}`, (p) => p.getByRole('table', { name: 'Runs', exact: true }).getByRole('link', { name: `Run of ${ada}` }).waitFor()),
    );
    await checkAtBothWidths('automation-run', at(`#/automations/${automationId}/runs/${runId}`, (p) => p.getByText('Took the No way').waitFor()));
  });
});
