/**
 * The console's Audience pages (leads, a lead, segments, imports) and a partner's Projects pages,
 * in Chromium against a test cloud: a CSV imported through the page with its progress bar, and a
 * project key rotated in the partner console, after which the old key's console is signed out.
 */
import type { Browser } from 'playwright-core';
import { startTestCloud, sendBody, type TestCloud } from '../support/test-cloud';
import { checkAtBothWidths, launchBrowser, openConsole } from './support/console-browser';

jest.setTimeout(120_000);

let cloud: TestCloud;
let browser: Browser;
let segmentId: string;
let leadId: string;
let importId: string;

/** The CSV the import test uploads: three good rows and one bad email. */
const CSV = ['email,first_name,plan,tags', 'grace@import.example,Grace,pro,vip;beta', 'linus@import.example,Linus,free,', 'not-an-email,Bad,free,', 'margaret@import.example,Margaret,pro,vip', ''].join('\n');

beforeAll(async () => {
  cloud = await startTestCloud();
  browser = await launchBrowser();
  const segment = await cloud.api('POST', '/v1/segments', { body: { name: 'Newsletter', description: 'Asked for the monthly letter' } });
  segmentId = (segment.body.segment as { id: string }).id;
  const leads = await cloud.api('POST', '/v1/leads', {
    body: {
      leads: [
        { email: 'ada@audience.example', data: { first_name: 'Ada', last_name: 'Lovelace', plan: 'pro', _tags: ['beta', 'early'] }, segment_ids: [segmentId] },
        { email: 'alan@audience.example', data: { first_name: 'Alan', plan: 'free' } },
      ],
    },
  });
  leadId = (leads.body.leads as { id: string; email: string }[]).find((l) => l.email === 'ada@audience.example')!.id;
  await cloud.api('POST', '/v1/events', { body: { email: 'ada@audience.example', event: 'order_completed', properties: { order_id: 'A-1042', total: 59.9 } } });
  const sent = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: 'ada@audience.example', subject: 'Your order A-1042' }) });
  // An import sent inline (one bad row), for the view of a finished import and its failed rows.
  const created = await cloud.api('POST', '/v1/leads/imports', { body: { format: 'csv', content: 'email,first_name\nhopper@inline.example,Grace\nnot-an-address,Nobody\n' } });
  importId = (created.body.import as { id: string }).id;
  for (let status = ''; status !== 'done'; ) {
    await new Promise((r) => setTimeout(r, 200));
    status = ((await cloud.api('GET', `/v1/leads/imports/${importId}`)).body.import as { status: string }).status;
    if (status === 'failed') throw new Error('The inline import failed');
  }
  // The lead's mail lists the record whatever its status: it need only exist.
  await cloud.waitForActivity(sent.body.email_id as string, cloud.seed.live_key, () => true);
});

afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

describe('Leads', () => {
  test('the list shows the leads and the search asks the API', async () => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash: '#/audience/leads' });
    try {
      const table = tab.page.getByRole('table', { name: 'Leads' });
      await table.getByRole('link', { name: 'alan@audience.example' }).waitFor();
      await tab.page.getByLabel('Search').fill('ada@aud');
      await tab.page.getByRole('button', { name: 'Search' }).click();
      await tab.page.waitForURL(/search=ada/);
      await table.getByRole('link', { name: 'ada@audience.example' }).waitFor();
      await table.getByRole('link', { name: 'alan@audience.example' }).waitFor({ state: 'detached' });
      // The segment filter lists the segment's members only.
      await tab.page.getByRole('button', { name: 'Clear' }).click();
      await table.getByRole('link', { name: 'alan@audience.example' }).waitFor();
      await tab.page.getByLabel('Segment').selectOption({ label: 'Newsletter' });
      await tab.page.getByRole('button', { name: 'Search' }).click();
      await tab.page.waitForURL(/segment_id=/);
      await table.getByRole('link', { name: 'alan@audience.example' }).waitFor({ state: 'detached' });
      await table.getByRole('link', { name: 'ada@audience.example' }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

describe('Imports', () => {
  test('a CSV of leads is uploaded, its progress bar finishes, and its leads are listed and found', async () => {
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash: '#/audience/imports' });
    try {
      const page = tab.page;
      await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
      await page.getByRole('button', { name: 'Start the import' }).click();
      const progress = page.locator('progress#import-progress');
      await progress.waitFor();
      await page.getByRole('status').filter({ hasText: 'Done: 100 %' }).waitFor({ timeout: 60_000 });
      expect(await progress.getAttribute('value')).toBe('100');
      const counts = page.getByRole('region', { name: 'Import' });
      await counts.getByText('Leads created').waitFor();
      // The bad row is in the report of failed rows.
      await page.getByRole('table', { name: 'Failed rows of the import' }).getByText('not-an-email').waitFor();
      expect(tab.errors).toEqual([]);

      await page.getByRole('link', { name: 'See the leads' }).click();
      const table = page.getByRole('table', { name: 'Leads' });
      await table.getByRole('link', { name: 'margaret@import.example' }).waitFor();
      await page.getByLabel('Search').fill('Grace');
      await page.getByRole('button', { name: 'Search' }).click();
      await table.getByRole('link', { name: 'grace@import.example' }).waitFor();
      await table.getByRole('link', { name: 'margaret@import.example' }).waitFor({ state: 'detached' });
      await table.getByRole('link', { name: 'grace@import.example' }).click();
      await page.getByRole('heading', { name: 'grace@import.example' }).waitFor();
      await page.getByRole('region', { name: 'Tags and segments' }).getByText('vip').waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });
});

describe('Pages at 1280 and 390 pixels', () => {
  const open = (hash: string, shows: string, key = () => cloud.seed.live_key) => async (width: number) => {
    const tab = await openConsole(browser, cloud, { apiKey: key(), hash, width });
    await tab.page.getByText(shows, { exact: true }).first().waitFor();
    return tab;
  };

  test('leads list', () => checkAtBothWidths('audience-leads', open('#/audience/leads', 'ada@audience.example')));
  // The lead's detail shows its attributes, tags, segments, events and mail at both widths.
  test('lead detail', () =>
    checkAtBothWidths('audience-lead', async (width) => {
      const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.live_key, hash: `#/audience/leads/${leadId}`, width });
      const page = tab.page;
      await page.getByRole('heading', { name: 'ada@audience.example' }).waitFor();
      await page.getByRole('region', { name: 'Attributes' }).getByText('Lovelace').waitFor();
      const tags = page.getByRole('region', { name: 'Tags and segments' });
      await tags.getByText('early').waitFor();
      await tags.getByRole('link', { name: 'Newsletter' }).waitFor();
      await page.getByRole('table', { name: 'Custom events of ada@audience.example' }).getByText('order_completed').waitFor();
      await page.getByRole('table', { name: 'Mail to ada@audience.example' }).getByRole('link', { name: 'Your order A-1042' }).waitFor();
      return tab;
    }));
  test('segments', () => checkAtBothWidths('audience-segments', open('#/audience/segments', 'Newsletter')));
  test('imports', () => checkAtBothWidths('audience-imports', open('#/audience/imports', 'Import leads')));
  test('a finished import', () => checkAtBothWidths('audience-import', open(`#/audience/imports/${importId}`, 'not-an-address')));
  test('partner projects list', () => checkAtBothWidths('partner-projects', open('#/projects', 'Quota', () => cloud.seed.partner_key)));
  test('partner project view', () => checkAtBothWidths('partner-project', open(`#/projects/${cloud.seed.project_id}`, 'Health', () => cloud.seed.partner_key)));
});

describe('Partner projects', () => {
  test('a project is opened from the list and its settings are saved', async () => {
    const created = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: 'Console Globex' } });
    const projectId = created.body.project_id as string;
    const tab = await openConsole(browser, cloud, { apiKey: cloud.seed.partner_key, hash: '#/projects' });
    try {
      const page = tab.page;
      await page.getByRole('link', { name: 'Console Globex' }).click();
      await page.getByRole('heading', { name: 'Console Globex', level: 1 }).waitFor();
      await page.getByLabel('Webhook URL', { exact: true }).fill('https://hooks.globex.example/mail');
      await page.getByRole('button', { name: 'Save the settings' }).click();
      await page.getByText('Saved.').waitFor();
      const read = await cloud.api('GET', `/v1/partner/projects/${projectId}`, { key: cloud.seed.partner_key });
      expect((read.body.project as { webhook_url: string }).webhook_url).toBe('https://hooks.globex.example/mail');

      // Disabling asks first; the project then shows as disabled and can be reactivated.
      await page.getByRole('button', { name: 'Disable the project' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Reactivate the project' }).waitFor();
      expect(((await cloud.api('GET', `/v1/partner/projects/${projectId}`, { key: cloud.seed.partner_key })).body.project as { disabled_at: string | null }).disabled_at).not.toBeNull();
      await page.getByRole('button', { name: 'Reactivate the project' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
      await page.getByRole('button', { name: 'Disable the project' }).waitFor();
      expect(tab.errors).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  // Last in the file: it rotates the seeded project's live key, which the tests above sign in with.
  test('a key rotated in the console is refused at once: its console goes back to sign-in', async () => {
    const oldKey = cloud.seed.live_key;
    const before = await openConsole(browser, cloud, { apiKey: oldKey, hash: '#/audience/segments' });
    const partner = await openConsole(browser, cloud, { apiKey: cloud.seed.partner_key, hash: `#/projects/${cloud.seed.project_id}` });
    try {
      await before.page.getByRole('link', { name: 'Newsletter' }).waitFor();
      const page = partner.page;
      await page.getByRole('button', { name: 'Rotate the key' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect((await cloud.api('GET', '/v1/segments', { key: oldKey })).status).toBe(200);
      await page.getByRole('button', { name: 'Rotate the key' }).click();
      await dialog.getByRole('button', { name: 'Rotate' }).click();
      await page.getByText('it will not be shown again').waitFor();
      const newKey = (await page.locator('code.secret').textContent()) ?? '';
      expect(newKey).toMatch(/^sk_/);
      expect(newKey).not.toBe(oldKey);

      // The tab signed in with the old key: its next API call answers 401 and it shows the sign-in form.
      await before.page.getByRole('link', { name: 'Leads' }).first().click();
      await before.page.getByLabel(/API key/i).waitFor();
      const refused = await before.context.request.post('/console/session', { data: { api_key: oldKey }, headers: { 'X-Mailroom-Console': '1' } });
      expect(refused.status()).toBe(401);
      const accepted = await before.context.request.post('/console/session', { data: { api_key: newKey }, headers: { 'X-Mailroom-Console': '1' } });
      expect(accepted.status()).toBe(201);
      expect(partner.errors).toEqual([]);
    } finally {
      await before.close();
      await partner.close();
    }
  });
});
