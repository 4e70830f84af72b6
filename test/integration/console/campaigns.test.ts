import type { Browser, Page } from 'playwright-core';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';
import { checkAtBothWidths, launchBrowser, openConsole, type ConsoleTab } from './support/console-browser';

/**
 * The console's Templates and Campaigns pages in Chromium against a test cloud: a template created
 * and edited with its live preview (the API's dry run), a template in use refused with the API's
 * answer, and the flow "create a campaign to a segment and watch it complete", its report
 * and its CSV export. Everything but the flow under test is set up through the API.
 */

jest.setTimeout(120_000);

type Data = Record<string, any>;
let cloud: TestCloud;
let browser: Browser;
const tag = Date.now().toString(36);
const domain = `news-${tag}.example.com`;
let senderId: string;
let segmentId: string;
const leads = ['ada', 'grace', 'alan'].map((n) => `${n}-${tag}@example.com`);
let campaignTemplate: { id: string; name: string };
let usedTemplate: { id: string; name: string };
let campaignId: string;
let autumnId: string;
/** The tab the campaign was created in, left open on its view while the template tests run. */
let flowPage: Page;
const tabs: ConsoleTab[] = [];

/** The API's answer, refused loudly when it is not the status expected. */
async function call(method: string, path: string, body: unknown, status: number): Promise<Data> {
  const res = await cloud.api(method, path, { body });
  if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Data;
}

/** Waits until `read` gives `expected` (a page updating on its own), then asserts it, so a timeout shows the last value. */
async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  expect(last).toBe(expected);
}

/** A console tab signed in with the live key, closed after the file. */
async function open(hash: string, width?: number): Promise<Page> {
  const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash, width });
  tabs.push(tab);
  return tab.page;
}

beforeAll(async () => {
  cloud = await startTestCloud();
  browser = await launchBrowser();
  // A verified domain and its sender, as an operator would have set them up.
  const registered = await call('POST', '/domains/register', { domain, sender_name: 'Weekly News', sender_email: `news@${domain}` }, 201);
  senderId = registered.sender_profile_id as string;
  await cloud.publishDns(domain);
  await call('POST', `/domains/${domain}/verify`, undefined, 200);
  const template = await call('POST', '/v1/templates', { name: `Spring news ${tag}`, subject: 'Spring news for {{name}}', html: '<p>Hello {{name}}, spring is here.</p>' }, 201);
  campaignTemplate = { id: template.data.id, name: template.data.name };
  const segment = await call('POST', '/v1/segments', { name: `Readers ${tag}` }, 201);
  segmentId = segment.segment.id as string;
  await call('POST', '/v1/leads', { leads: leads.map((email, i) => ({ email, data: { name: `Reader ${i}` }, segment_ids: [segmentId] })) }, 201);
  // A template a campaign scheduled next month holds: its delete is refused.
  const used = await call('POST', '/v1/templates', { name: `Autumn news ${tag}`, subject: 'Autumn', html: '<p>Autumn</p>' }, 201);
  usedTemplate = { id: used.data.id, name: used.data.name };
  const nextMonth = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const autumn = await call('POST', '/v1/campaigns', { name: `Autumn ${tag}`, templateId: usedTemplate.id, senderProfileId: senderId, segmentId, scheduledFor: nextMonth }, 200);
  autumnId = autumn.campaign.id as string;
}, CLOUD_TIMEOUT_MS + 60_000);

afterAll(async () => {
  for (const tab of tabs) await tab.close().catch(() => undefined);
  await browser?.close();
  await cloud?.stop();
});

// The flow "create a campaign to a segment and watch it complete" is split around the
// template tests: the engine takes some seconds to mark a campaign completed, and its view (the same
// tab) keeps polling meanwhile.
describe('Campaigns: create a campaign to a segment', () => {
  test('the form picks the template by search, the sender and the segment (with its count), and opens the new campaign', async () => {
    const page = await open('#/campaigns/new');
    flowPage = page;
    await page.getByLabel('Name', { exact: true }).fill(`Spring ${tag}`);
    await page.getByLabel('Find a template by name').fill(`Spring news ${tag}`);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('radio', { name: new RegExp(`Spring news ${tag}`) }).check();
    await page.getByLabel('Sender').selectOption(senderId);
    await page.getByLabel('Audience: a segment').selectOption(segmentId);
    await page.getByText('3 recipients now').waitFor();
    await page.getByRole('button', { name: 'Create campaign' }).click();

    await page.waitForURL(/#\/campaigns\/[0-9a-f-]{36}$/);
    campaignId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: `Spring ${tag}` }).waitFor();
  });
});

describe('Templates: create and edit with a live preview from the dry run', () => {
  test('the preview follows the HTML, the subject and the sample variables; bad JSON is said so; saving creates, then updates', async () => {
    const page = await open('#/templates/new');
    await page.getByLabel('Name', { exact: true }).fill(`Welcome ${tag}`);
    await page.getByLabel('Subject').fill('Welcome, {{name}}');
    await page.getByLabel('HTML').fill('<p>Hi {{name}}, welcome aboard.</p>');
    const subject = page.getByTestId('preview-subject');
    await eventually(() => subject.textContent(), 'Welcome, Ada');
    await eventually(() => page.getByTestId('preview-text').textContent(), 'Hi Ada, welcome aboard.');

    await page.getByLabel('Variables (JSON object)').fill('{"name": "Grace"}');
    await eventually(() => subject.textContent(), 'Welcome, Grace');
    await eventually(() => page.locator('iframe.mail-preview').getAttribute('srcdoc'), '<p>Hi Grace, welcome aboard.</p>');
    expect(await page.locator('iframe.mail-preview').getAttribute('sandbox')).toBe('');

    await page.getByLabel('Variables (JSON object)').fill('{"name": ');
    await page.getByText('Sample variables are not JSON').waitFor();
    await page.getByLabel('Variables (JSON object)').fill('["Ada"]');
    await page.getByText('Sample variables must be a JSON object').waitFor();
    await page.getByLabel('Variables (JSON object)').fill('{"name": "Grace"}');

    await page.getByRole('button', { name: 'Create template' }).click();
    await page.waitForURL(/#\/templates\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: `Template: Welcome ${tag}` }).waitFor();

    // Edit: the preview changes with the HTML before anything is saved, then the save makes version 2.
    await page.getByLabel('HTML').fill('<p>Goodbye {{name}}.</p>');
    await eventually(() => page.getByTestId('preview-text').textContent(), 'Goodbye Ada.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved: version 2.').waitFor();
    const stored = await call('GET', `/v1/templates/${id}`, undefined, 200);
    expect(stored.data).toMatchObject({ name: `Welcome ${tag}`, subject: 'Welcome, {{name}}', html: '<p>Goodbye {{name}}.</p>', version: 2 });
  });

  test('the list finds a template by name and opens it', async () => {
    const page = await open('#/templates');
    await page.getByLabel('Name contains').fill(`Welcome ${tag}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: `Welcome ${tag}` }).click();
    await page.getByRole('heading', { name: `Template: Welcome ${tag}` }).waitFor();
  });
});

describe('Templates: delete a template in use', () => {
  test('asks first, then shows the API\'s 409 and its message, and the template stays', async () => {
    const page = await open(`#/templates/${usedTemplate.id}`);
    await page.getByRole('button', { name: 'Delete template' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this template?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete template' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Not deleted' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Not deleted \(409\): Template is in use by 1 campaign\(s\).*TEMPLATE_IN_USE/);
    await call('GET', `/v1/templates/${usedTemplate.id}`, undefined, 200);
  });
});

describe('Campaigns: pause, resume and cancel', () => {
  test('a scheduled campaign pauses and resumes; cancel asks first, and a cancelled one offers no action', async () => {
    const page = await open(`#/campaigns/${autumnId}`);
    const badge = page.locator('.progress-line .badge');
    await badge.filter({ hasText: 'pending' }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('The campaign is now paused.').waitFor();
    await badge.filter({ hasText: 'paused' }).waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('The campaign is now pending.').waitFor();

    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this campaign?' });
    await dialog.getByRole('button', { name: 'Keep it running' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await call('GET', `/v1/campaigns/${autumnId}`, undefined, 200)).campaign.status).toBe('pending');
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await dialog.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.getByText('The campaign is now cancelled.').waitFor();
    await badge.filter({ hasText: 'cancelled' }).waitFor();
    expect(await page.getByRole('button', { name: /Pause|Resume|Cancel campaign/ }).count()).toBe(0);
  });
});

describe('Campaigns: watch it complete', () => {
  test('the view, polling on its own, follows the campaign to completed with its progress bar full', async () => {
    const page = flowPage;
    const progress = page.getByTestId('campaign-progress');
    await eventually(() => progress.textContent(), '3 sent, 0 failed, of 3', 60_000);
    await page.locator('.progress-line .badge', { hasText: 'completed' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('progress.progress').evaluate((p) => [(p as unknown as { value: number }).value, (p as unknown as { max: number }).max])).toEqual([3, 3]);
    expect((await call('GET', `/v1/campaigns/${campaignId}`, undefined, 200)).campaign).toMatchObject({ status: 'completed', emails_sent: 3 });
  });

  test('the report lists each recipient, and the CSV export becomes a download holding them', async () => {
    const page = flowPage;
    const recipients = page.getByRole('table', { name: 'Recipients and their outcomes' });
    for (const email of leads) await recipients.getByRole('link', { name: email }).waitFor();
    await page.getByText('No recipient was left out.').waitFor();

    await page.getByRole('button', { name: 'Export as CSV' }).click();
    const download = page.getByRole('link', { name: 'Download CSV' });
    await download.waitFor({ timeout: 30_000 });
    const csv = await (await page.context().request.get((await download.getAttribute('href'))!)).text();
    for (const email of leads) expect(csv).toContain(email);
  });
});

describe('Every view at 1280 and 390 pixels: no serious accessibility violation, a screenshot each', () => {
  const at = (hash: string, ready: (page: Page) => Promise<unknown>) => async (width: number) => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash, width });
    await ready(tab.page);
    return tab;
  };

  test('templates list, template editor, campaigns list, campaign create, campaign view', async () => {
    await checkAtBothWidths('templates', at('#/templates', (p) => p.getByRole('link', { name: campaignTemplate.name }).waitFor()));
    await checkAtBothWidths('template-editor', at(`#/templates/${campaignTemplate.id}`, (p) => p.frameLocator('iframe.mail-preview').getByText('Hello Ada, spring is here.').waitFor()));
    await checkAtBothWidths('campaigns', at('#/campaigns', (p) => p.getByRole('link', { name: `Spring ${tag}` }).waitFor()));
    await checkAtBothWidths('campaign-create', at('#/campaigns/new', (p) => p.getByRole('radio', { name: new RegExp(campaignTemplate.name) }).waitFor()));
    await checkAtBothWidths('campaign-view', at(`#/campaigns/${campaignId}`, (p) => Promise.all([p.getByRole('link', { name: leads[0] }).waitFor(), p.getByText('No recipient was left out.').waitFor()])));
  });
});
