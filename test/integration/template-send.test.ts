import fs from 'node:fs';
import path from 'node:path';
import { services } from '../../composition/services';
import { putSuppression } from '../../shared/mail-pipeline/suppression/suppression-repository';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;
let template: { id: string; internal_id: number };

beforeAll(async () => {
  cloud = await startTestCloud();
  const res = await cloud.api('POST', '/v1/templates', {
    body: {
      name: 'Order confirmation',
      subject: 'Order {{order_id}} confirmed',
      html: '<html><body><p>Hi {{capitalize name}},</p><ul>{{#each items}}<li>{{this.title}}: {{formatCurrency this.price "EUR"}}</li>{{/each}}</ul><p><a href="{{view_in_browser_url}}">View online</a></p></body></html>',
    },
  });
  template = res.body.data as { id: string; internal_id: number };
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** Long header lines are folded in MIME; unfold them to read a header whole. */
const unfolded = (eml: string) => eml.replace(/\r?\n[ \t]+/g, ' ');

const send = (body: Record<string, unknown>) => cloud.api('POST', '/v1/send-template-email', { body });
const base = () => ({ recipient_email: 'buyer@example.com', sender_email: cloud.seed.sender_email, variables: { name: 'ada', order_id: 'A-1', items: [{ title: 'Tea', price: 4.5 }] } });

describe('POST /v1/send-template-email: errors (part 7)', () => {
  test.each([
    [{ recipient_email: 'a@example.com', sender_email: 'b@example.com' }, 400, 'Missing required fields: template_id/template_internal_id, OR recipient_email + sender_email + html_body'],
    [{ template_id: '00000000-0000-4000-8000-000000000000', sender_email: 'b@example.com' }, 400, 'Missing required fields: recipient_email, sender_email'],
    [{ html_body: '<p>x</p>', recipient_email: 'a@example.com' }, 400, 'Missing required fields: recipient_email, sender_email'],
    [{ template_internal_id: 'abc', recipient_email: 'a@example.com', sender_email: 'b@example.com' }, 400, 'template_internal_id requires valid project context'],
    [{ template_id: '00000000-0000-4000-8000-000000000000', recipient_email: 'a@example.com', sender_email: 'b@example.com' }, 404, 'Template not found with ID 00000000-0000-4000-8000-000000000000'],
    [{ template_internal_id: 9999, recipient_email: 'a@example.com', sender_email: 'b@example.com' }, 404, 'Template not found with ID 9999'],
    [{ html_body: '<p>{{nothing}}</p>', recipient_email: 'a@example.com', sender_email: 'b@example.com' }, 422, 'TEMPLATE_EMPTY'],
    [{ html_body: '<p>x</p>', recipient_email: 'a@example.com', sender_email: 'b@example.com', environment: 'nope' }, 400, 'ENVIRONMENT_NOT_CONFIGURED'],
  ])('%j gives %i %s', async (body, status, message) => {
    const res = await send(body);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(message);
  });
});

describe('POST /v1/send-template-email: sends', () => {
  test('by uuid: rendered, with variables_used (injected ones too) and the cache used from the second send on', async () => {
    const first = await send({ ...base(), template_id: template.id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ project_id: cloud.seed.project_id, template_id: template.id, template_internal_id: null });
    expect(first.body.variables_used).toEqual(expect.arrayContaining(['items', 'name', 'order_id', 'unsubscribe_url', 'view_in_browser_url']));
    const second = await send({ ...base(), template_id: template.id });
    expect(second.body.used_cached_html).toBe(true);
    const activity = await cloud.waitForActivity(first.body.email_id as string, cloud.seed.live_key, (a) => a.current_status === 'delivered');
    expect(activity).toMatchObject({ subject: 'Order A-1 confirmed', template_id: template.id, email_type: 'template' });
  });

  test('by internal id: template_internal_id echoed', async () => {
    const res = await send({ ...base(), template_internal_id: template.internal_id });
    expect(res.body).toMatchObject({ template_id: template.id, template_internal_id: template.internal_id });
  });

  test('the MIME carries List-Unsubscribe (https and mailto), List-Unsubscribe-Post, the footer, and replies go to the sender', async () => {
    const res = await send({ ...base(), template_id: template.id });
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, (a) => Boolean(a.message_id));
    const eml = unfolded(fs.readFileSync(path.join(cloud.outboxDir, `${activity.message_id}.eml`), 'utf8'));
    expect(eml).toMatch(/^List-Unsubscribe: <http:\/\/localhost:\d+\/u\/[^>]+>, <mailto:unsubscribe\+[^@]+@reply\.mailroom\.local>/m);
    expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(eml).toMatch(/^Reply-To: hello@demo\.mailroom\.test/m);
    expect(eml).toContain('4.50');
    expect(eml.replace(/=\r?\n/g, '')).toMatch(/\/u\/[A-Za-z0-9_-]+/);
  });

  test('html_body mode without a template', async () => {
    const res = await send({ recipient_email: 'plain@example.com', sender_email: cloud.seed.sender_email, html_body: '<p>Hello {{who}}</p>', variables: { who: 'you' } });
    expect(res.body).toMatchObject({ template_id: null, template_internal_id: null, used_cached_html: false });
  });
});

describe('Suppression before answering, and the one-click unsubscribe round trip', () => {
  test('a suppressed recipient is skipped at once', async () => {
    await putSuppression(services().db, { project_id: cloud.seed.project_id, email: 'gone@example.com', reason: 'bounce', source: 'test', suppressed_at: new Date().toISOString() });
    const res = await send({ ...base(), recipient_email: 'gone@example.com', template_id: template.id });
    expect(res.body).toEqual({ message: expect.any(String), skipped: true, suppression_reason: 'bounce', recipient: 'gone@example.com' });
  });

  test('POSTing the List-Unsubscribe URL suppresses the address; the next template send is skipped', async () => {
    const res = await send({ ...base(), recipient_email: 'leaver@example.com', template_id: template.id });
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, (a) => Boolean(a.message_id));
    const eml = unfolded(fs.readFileSync(path.join(cloud.outboxDir, `${activity.message_id}.eml`), 'utf8'));
    const url = /^List-Unsubscribe: <([^>]+)>/m.exec(eml)?.[1] as string;
    const post = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(post.status).toBe(200);
    const again = await send({ ...base(), recipient_email: 'leaver@example.com', template_id: template.id });
    expect(again.body).toMatchObject({ skipped: true, suppression_reason: 'unsubscribe' });
  });
});
