import type { Browser, Page } from 'playwright-core';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';
import { checkAtBothWidths, launchBrowser, openConsole, screenshot, type ConsoleTab } from './support/console-browser';

/**
 * The console's Automations pages in Chromium against a test cloud: the welcome series created
 * from the editor's example, its flow in words, activation refused naming a step (the example's
 * template does not exist in the project) with that step marked, the fix and the activation, an
 * active edit making version 2, pause and archive; and the list filtered by status. Everything but
 * the flow under test is set up through the API.
 */

jest.setTimeout(120_000);

type Data = Record<string, any>;
let cloud: TestCloud;
let browser: Browser;
const tag = Date.now().toString(36);
const domain = `journeys-${tag}.example.com`;
let senderId: string;
let welcomeTemplate: { id: string; name: string };
let nudgeTemplate: { id: string; name: string };
let renewalId: string;
let welcomeId: string;
const tabs: ConsoleTab[] = [];

/** The example's ids (docs/automations.md): they name nothing in the test project. */
const EXAMPLE_WELCOME_TEMPLATE = '6f1c2b9e-3a4d-4e5f-8a9b-0c1d2e3f4a5b';
const EXAMPLE_NUDGE_TEMPLATE = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
const EXAMPLE_SENDER = 'c4d5e6f7-0a1b-4c2d-8e3f-9a0b1c2d3e4f';

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

/** Waits until step `id`'s block of the flow has the keyboard focus. */
async function waitForFocusOn(page: Page, id: string): Promise<void> {
  await page.waitForFunction((step) => {
    const doc = (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }).document;
    return doc.activeElement?.getAttribute('data-step') === step;
  }, id);
}

/** The editor's definition with the example's ids replaced by the project's own. */
async function fixIds(page: Page): Promise<void> {
  const editor = page.getByLabel('Definition (JSON)');
  const text = (await editor.inputValue())
    .replaceAll(EXAMPLE_WELCOME_TEMPLATE, welcomeTemplate.id)
    .replaceAll(EXAMPLE_NUDGE_TEMPLATE, nudgeTemplate.id)
    .replaceAll(EXAMPLE_SENDER, senderId);
  await editor.fill(text);
}

beforeAll(async () => {
  cloud = await startTestCloud();
  browser = await launchBrowser();
  const registered = await call('POST', '/domains/register', { domain, sender_name: 'Journeys', sender_email: `hello@${domain}` }, 201);
  senderId = registered.sender_profile_id as string;
  await cloud.publishDns(domain);
  await call('POST', `/domains/${domain}/verify`, undefined, 200);
  const welcome = await call('POST', '/v1/templates', { name: `Welcome mail ${tag}`, subject: 'Welcome, {{name}}', html: '<p>Welcome</p>' }, 201);
  welcomeTemplate = { id: welcome.data.id, name: welcome.data.name };
  const nudge = await call('POST', '/v1/templates', { name: `Nudge mail ${tag}`, subject: 'Still there?', html: '<p>Nudge</p>' }, 201);
  nudgeTemplate = { id: nudge.data.id, name: nudge.data.name };
  // A draft for the list's filter and the date trigger's words: the renewal reminder of the docs.
  const renewal = await call(
    'POST',
    '/v1/automations',
    {
      name: `Renewal reminder ${tag}`,
      trigger: { type: 'date', attribute: 'renewal_date', offset_days: -3, at: '09:00', yearly: false },
      entry: { filter: null, reentry: 'every_time' },
      steps: [{ id: 'remind', type: 'send_email', template_id: nudgeTemplate.id, sender_profile_id: senderId, email_type: 'transactional' }],
    },
    201,
  );
  renewalId = renewal.data.id as string;
}, CLOUD_TIMEOUT_MS + 60_000);

afterAll(async () => {
  for (const tab of tabs) await tab.close().catch(() => undefined);
  await browser?.close();
  await cloud?.stop();
});

describe('Automations: create the welcome series from the example', () => {
  test('the editor checks the JSON syntax, shows the API\'s 400 verbatim, and creates a draft that opens on its flow', async () => {
    const page = await open('#/automations/new');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Welcome series');
    const editor = page.getByLabel('Definition (JSON)');
    const example = await editor.inputValue();
    expect(JSON.parse(example).steps.map((s: Data) => s.id)).toEqual(['welcome', 'wait_2_days', 'opened_welcome', 'nudge']);
    await page.getByText('The definition is well-formed JSON.').waitFor();

    await editor.fill(`${example.slice(0, 40)}`);
    await page.getByText(/^The definition is not JSON: /).waitFor();
    expect(await page.getByRole('button', { name: 'Create automation' }).isDisabled()).toBe(true);

    // A misspelt field: the API's 400 names it, and the console shows its message as it is.
    await editor.fill(example.replace('"next": "wait_2_days"', '"nxt": "wait_2_days"'));
    await page.getByLabel('Name', { exact: true }).fill(`Welcome ${tag}`);
    await page.getByRole('button', { name: 'Create automation' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('steps[0] has an unknown field: nxt');

    await editor.fill(example);
    await page.getByRole('button', { name: 'Create automation' }).click();
    await page.waitForURL(/#\/automations\/[0-9a-f-]{36}$/);
    welcomeId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: `Welcome ${tag}` }).waitFor();
    expect((await call('GET', `/v1/automations/${welcomeId}`, undefined, 200)).data).toMatchObject({ status: 'draft', version: 1 });
  });

  test('the flow says the trigger and rules in words, each step with its branches, linked to the steps they go to', async () => {
    const page = await open(`#/automations/${welcomeId}`);
    await page.getByTestId('trigger-words').filter({ hasText: 'When event signed_up happens' }).waitFor();
    await page.getByText('Re-entry: once').waitFor();
    await page.getByText('Ends when event purchased happens').waitFor();
    const steps = page.getByRole('list', { name: 'Steps, from the first' }).locator(':scope > li');
    expect(await steps.evaluateAll((li) => li.map((l) => l.getAttribute('data-step')))).toEqual(['welcome', 'wait_2_days', 'opened_welcome', 'nudge']);
    await steps.nth(1).getByText('Waits 2 days').waitFor();
    await steps.nth(2).getByText('Did the lead open the mail of step welcome?').waitFor();
    const branches = page.getByRole('list', { name: 'Where step opened_welcome goes' });
    expect(await branches.textContent()).toMatch(/Yes: the run ends \(completed\).*No: step nudge/);
    await branches.getByRole('link', { name: 'step nudge' }).click();
    await page.waitForURL(/\?step=nudge$/);
    await waitForFocusOn(page, 'nudge');
  });
});

describe('Automations: activate, refused naming a step, fixed, paused and archived', () => {
  test('activation is refused with the API\'s 409 naming the step, and that step is marked in the flow', async () => {
    const page = await open(`#/automations/${welcomeId}`);
    await page.getByRole('button', { name: 'Activate' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Refused' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`Step "welcome": template ${EXAMPLE_WELCOME_TEMPLATE} does not exist`);
    expect(await alert.textContent()).toContain('AUTOMATION_INVALID');
    const step = page.locator('[data-step="welcome"]');
    expect(await step.getAttribute('class')).toContain('refused');
    expect(await step.getAttribute('aria-label')).toBe('Step 1: welcome (refused)');
    await step.getByText(`Refused at activation: Step "welcome": template ${EXAMPLE_WELCOME_TEMPLATE} does not exist`).waitFor();
    await waitForFocusOn(page, 'welcome');
    expect(await page.locator('.flow-step.refused').count()).toBe(1);
    await screenshot(page, 'automation-refused');
    expect((await call('GET', `/v1/automations/${welcomeId}`, undefined, 200)).data.status).toBe('draft');
  });

  test('the fixed draft is saved in place, activates, and an active edit makes version 2', async () => {
    const page = await open(`#/automations/${welcomeId}/edit`);
    await page.getByRole('heading', { name: `Edit: Welcome ${tag}` }).waitFor();
    await fixIds(page);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved: the draft\'s version 1 is replaced in place.').waitFor();

    await page.getByRole('link', { name: 'Back to its flow' }).click();
    await page.getByText(`Sends template “${welcomeTemplate.name}”`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByText('The automation is active at version 1: new entries start runs.').waitFor();
    await page.locator('.progress-line .badge', { hasText: 'active' }).waitFor();

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByText('This automation is active: saving checks the new definition').waitFor();
    const editor = page.getByLabel('Definition (JSON)');
    await editor.fill((await editor.inputValue()).replace('"days": 2', '"days": 3'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved: this made version 2, active now.', { exact: false }).waitFor();
    expect((await call('GET', `/v1/automations/${welcomeId}`, undefined, 200)).data).toMatchObject({ status: 'active', version: 2 });
  });

  test('pause, then archive after a confirmation: an archived automation offers no action', async () => {
    const page = await open(`#/automations/${welcomeId}`);
    await page.locator('[data-step="wait_2_days"]').getByText('Waits 3 days').waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('The automation is paused', { exact: false }).waitFor();
    await page.locator('.progress-line .badge', { hasText: 'paused' }).waitFor();

    await page.getByRole('button', { name: 'Archive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Archive this automation?' });
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await call('GET', `/v1/automations/${welcomeId}`, undefined, 200)).data.status).toBe('paused');
    await page.getByRole('button', { name: 'Archive' }).click();
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await page.getByText('The automation is archived', { exact: false }).waitFor();
    await page.locator('.progress-line .badge', { hasText: 'archived' }).waitFor();
    expect(await page.getByRole('button', { name: /Activate|Pause|Archive/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
  });
});

describe('Automations: the list', () => {
  test('filters by status through the API, and each row opens its automation', async () => {
    const page = await open('#/automations');
    const table = page.getByRole('table', { name: 'Automations' });
    await table.getByRole('link', { name: `Welcome ${tag}` }).waitFor();
    await table.getByRole('link', { name: `Renewal reminder ${tag}` }).waitFor();

    await page.getByLabel('Status').selectOption('archived');
    await page.waitForURL(/status=archived/);
    const archived = page.getByRole('table', { name: 'Automations: archived' });
    await archived.getByRole('link', { name: `Welcome ${tag}` }).waitFor();
    expect(await archived.getByRole('link', { name: `Renewal reminder ${tag}` }).count()).toBe(0);
    expect(await archived.getByRole('row').nth(1).textContent()).toMatch(/archived.*Event.*2/);

    await page.getByLabel('Status').selectOption('active');
    await page.getByText('No active automation.').waitFor();

    await page.getByLabel('Status').selectOption('draft');
    const drafts = page.getByRole('table', { name: 'Automations: draft' });
    await drafts.getByRole('link', { name: `Renewal reminder ${tag}` }).click();
    await page.getByTestId('trigger-words').filter({ hasText: "3 days before renewal_date at 09:00 in the lead's time zone" }).waitFor();
    await page.getByText('Re-entry: every time').waitFor();
  });
});

describe('Every view at 1280 and 390 pixels: no serious accessibility violation, a screenshot each', () => {
  const at = (hash: string, ready: (page: Page) => Promise<unknown>) => async (width: number) => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash, width });
    await ready(tab.page);
    return tab;
  };

  test('automations list, new automation, an automation\'s flow, its editor', async () => {
    await checkAtBothWidths('automations', at('#/automations', (p) => p.getByRole('link', { name: `Welcome ${tag}` }).waitFor()));
    await checkAtBothWidths('automation-new', at('#/automations/new', (p) => p.getByText('The definition is well-formed JSON.').waitFor()));
    await checkAtBothWidths('automation-view', at(`#/automations/${welcomeId}`, (p) => p.getByText(`Sends template “${nudgeTemplate.name}”`, { exact: false }).waitFor()));
    await checkAtBothWidths('automation-renewal', at(`#/automations/${renewalId}`, (p) => p.getByText(`Sends template “${nudgeTemplate.name}”`, { exact: false }).waitFor()));
    await checkAtBothWidths('automation-edit', at(`#/automations/${renewalId}/edit`, (p) => p.getByRole('heading', { name: `Edit: Renewal reminder ${tag}` }).waitFor()));
  });

  test('a refused activation at phone width: the step marked', async () => {
    const draft = await call('POST', '/v1/automations', { name: `Broken ${tag}`, trigger: { type: 'lead_created' }, steps: [{ id: 'tag_it', type: 'update_lead', add_tags: ['new'], next: 'gone' }] }, 201);
    const page = await open(`#/automations/${draft.data.id}`, 390);
    await page.getByRole('button', { name: 'Activate' }).click();
    const step = page.locator('[data-step="tag_it"].refused');
    await step.getByText('Refused at activation: Step "tag_it": next names step "gone", which does not exist').waitFor();
    await step.getByText('Adds the tag new').waitFor();
    await step.getByText('step gone (no such step)').waitFor();
    await screenshot(page, 'automation-refused');
  });
});
