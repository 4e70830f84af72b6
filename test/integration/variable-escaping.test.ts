import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { services } from '../../composition/services';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { unsubscribeLinks } from '../../shared/mail-pipeline/unsubscribe';
import { CLOUD_TIMEOUT_MS, startTestCloud, type OutboxMail, type TestCloud } from './support/test-cloud';

/**
 * Variables in every rendering path, read from the mail SES received: only the HTML part escapes
 * them; the Subject and the text part show them as given, and the Subject stays one line whatever a
 * variable holds.
 */

const NAME = "O'Brien & Co";
const ESCAPED = 'O&#x27;Brien &amp; Co';
/** A value that would start a header of its own if a Subject kept its line breaks. */
const INJECTING = 'Ann\r\nX-Injected: yes\nBcc: victim@example.com';

let cloud: TestCloud;
let templateId: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  const template = await cloud.api('POST', '/v1/templates', { body: { name: `escaping-${randomUUID()}`, subject: 'Order for {{name}}', html: '<p>Dear {{name}}, <a href="{{view_in_browser_url}}">view</a></p>' } });
  templateId = (template.body.data as { id: string }).id;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An address of its own per test, to find that test's mail in the shared outbox. */
const address = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** The mail SES received for `to` (parsed by the emulator) and its raw MIME. */
async function received(to: string, timeoutMs = 40_000): Promise<{ mail: OutboxMail; raw: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await cloud.outbox()).find((m) => m.destination.to.some((t) => t.includes(to)));
    if (mail) return { mail, raw: fs.readFileSync(path.join(cloud.outboxDir, `${mail.messageId}.eml`), 'utf8') };
    if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
    await sleep(150);
  }
}

/** The header block of a raw message, unfolded: one entry per header. */
const headerLines = (raw: string) => raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ').split('\r\n');

/** The Subject is the value as given; the text part too; only the HTML escapes it. */
function expectRenderedAsGiven({ mail, raw }: { mail: OutboxMail; raw: string }, subject: string, text: string | RegExp, html: string) {
  expect(mail.subject).toBe(subject);
  // The raw header, plain or as an encoded word (`&` is `=26` there): no entity in either form.
  const rawSubject = headerLines(raw).filter((line) => line.startsWith('Subject: '));
  expect(rawSubject).toHaveLength(1);
  expect(rawSubject[0]).not.toMatch(/amp;|#x27;|quot;|lt;|gt;/);
  if (typeof text === 'string') expect(mail.body.text).toContain(text);
  else expect(mail.body.text).toMatch(text);
  expect(mail.body.text).not.toContain('&#x27;');
  expect(mail.body.text).not.toContain('&amp;');
  expect(mail.body.html).toContain(html);
}

describe('POST /v1/send-template-email', () => {
  test('a stored template: the Subject and the derived text part read the name as given, the HTML escapes it', async () => {
    const to = address('tpl');
    const res = await cloud.api('POST', '/v1/send-template-email', { body: { recipient_email: to, sender_email: cloud.seed.sender_email, template_id: templateId, variables: { name: NAME } } });
    expect(res.status).toBe(200);
    expectRenderedAsGiven(await received(to), `Order for ${NAME}`, `Dear ${NAME}`, `Dear ${ESCAPED}`);
  });

  test('html_body and subject in the request, the same', async () => {
    const to = address('body');
    const body = { recipient_email: to, sender_email: cloud.seed.sender_email, subject: 'Hi {{name}} <{{code}}>', html_body: '<p>Code {{code}} for {{name}}</p>', variables: { name: NAME, code: '"A&B"' } };
    expect((await cloud.api('POST', '/v1/send-template-email', { body })).status).toBe(200);
    expectRenderedAsGiven(await received(to), `Hi ${NAME} <"A&B">`, `Code "A&B" for ${NAME}`, `Code &quot;A&amp;B&quot; for ${ESCAPED}`);
  });

  test('line breaks in a variable are folded in the Subject: no header can be injected', async () => {
    const to = address('inject');
    const res = await cloud.api('POST', '/v1/send-template-email', { body: { recipient_email: to, sender_email: cloud.seed.sender_email, template_id: templateId, variables: { name: INJECTING } } });
    expect(res.status).toBe(200);
    const { mail, raw } = await received(to);
    expect(mail.subject).toBe('Order for Ann X-Injected: yes Bcc: victim@example.com');
    expect(headerLines(raw).some((line) => /^(X-Injected|Bcc):/i.test(line))).toBe(false);
    expect(mail.destination.bcc ?? []).toEqual([]);
  });
});

describe('POST /send-email', () => {
  const body = (to: string, over: Record<string, unknown> = {}) => ({
    recipient: to,
    sender: cloud.seed.sender_email,
    subject: 'Order for {{name}}',
    html: '<p>Dear {{name}}</p>',
    text: 'Dear {{name}}, thanks.',
    data: { name: NAME },
    ...over,
  });

  test('sent now: the Subject and the text part as given, the HTML escaped', async () => {
    const to = address('now');
    expect((await cloud.api('POST', '/send-email', { body: body(to) })).status).toBe(200);
    expectRenderedAsGiven(await received(to), `Order for ${NAME}`, `Dear ${NAME}, thanks.`, `Dear ${ESCAPED}`);
  });

  test('marketing mail (rendered with the link variables) the same', async () => {
    const to = address('marketing');
    expect((await cloud.api('POST', '/send-email', { body: body(to, { email_type: 'marketing' }) })).status).toBe(200);
    expectRenderedAsGiven(await received(to), `Order for ${NAME}`, `Dear ${NAME}, thanks.`, `Dear ${ESCAPED}`);
  });

  test('scheduled: rendered at its time, the same', async () => {
    const to = address('later');
    const res = await cloud.api('POST', '/send-email', { body: body(to, { scheduled_at: new Date(Date.now() + 1500).toISOString() }) });
    expect(res.body).toMatchObject({ scheduled: true });
    expectRenderedAsGiven(await received(to), `Order for ${NAME}`, `Dear ${NAME}, thanks.`, `Dear ${ESCAPED}`);
  });

  test('a dry run shows the subject as given and the HTML escaped', async () => {
    const res = await cloud.api('POST', '/send-email', { body: body(address('dry'), { dry_run: true, subject: 'For {{name}} {{missing}}' }) });
    expect(res.status).toBe(200);
    expect(res.body.would_send).toMatchObject({ subject: `For ${NAME} {{missing}}`, html_preview: `<p>Dear ${ESCAPED}</p>` });
  });
});

describe('POST /v1/send-batch', () => {
  const batch = (recipients: unknown[], over: Record<string, unknown> = {}) => ({
    sender: cloud.seed.sender_email,
    subject: 'Order for {{name}}',
    html: '<p>Dear {{name}} of {{company}}</p>',
    text: 'Dear {{name}} of {{company}}',
    data: { company: 'Smith & Sons' },
    recipients,
    ...over,
  });

  test('each recipient: the Subject and the text part as given, the HTML escaped', async () => {
    const to = address('batch');
    const res = await cloud.api('POST', '/v1/send-batch', { body: batch([{ email: to, name: NAME }]) });
    expect(res.status).toBe(200);
    expectRenderedAsGiven(await received(to), `Order for ${NAME}`, `Dear ${NAME} of Smith & Sons`, `Dear ${ESCAPED} of Smith &amp; Sons`);
  });

  test('a dry run previews the subject as given', async () => {
    const res = await cloud.api('POST', '/v1/send-batch', { body: batch([{ email: address('batch-dry'), name: NAME }], { dry_run: true }) });
    expect(res.status).toBe(200);
    const [preview] = res.body.previews as { subject: string; html_preview: string }[];
    expect(preview.subject).toBe(`Order for ${NAME}`);
    expect(preview.html_preview).toContain(`<p>Dear ${ESCAPED} of Smith &amp; Sons</p>`);
  });
});

describe('campaigns', () => {
  test("a lead's name: the Subject as given, the HTML escaped", async () => {
    const to = address('campaign');
    const lead = await cloud.api('POST', '/v1/leads', { body: { email: to, data: { name: NAME } } });
    const senderProfileId = (await listSenders(services().db, cloud.seed.project_id))[0].id;
    const leadId = (lead.body.leads as { id: string }[])[0].id;
    const res = await cloud.api('POST', '/v1/campaigns', { body: { name: `escaping-${randomUUID()}`, subject: 'News for {{name}}', templateId, senderProfileId, recipientIds: [leadId] } });
    expect(res.status).toBeLessThan(300);
    expectRenderedAsGiven(await received(to), `News for ${NAME}`, `Dear ${NAME}`, `Dear ${ESCAPED}`);
  }, 60_000);
});

describe('the view-in-browser page', () => {
  test('shows the HTML as sent: the name escaped once, read back as given', async () => {
    const to = address('view');
    const res = await cloud.api('POST', '/v1/send-template-email', { body: { recipient_email: to, sender_email: cloud.seed.sender_email, template_id: templateId, variables: { name: NAME } } });
    await received(to);
    const secret = fs.readFileSync(path.join(path.dirname(cloud.outboxDir), 'token-secret'), 'utf8').trim();
    const links = unsubscribeLinks({ activityId: res.body.email_id as string, projectId: cloud.seed.project_id, email: to, baseUrl: cloud.baseUrl, secret });
    const page = await (await fetch(links.viewInBrowserUrl)).text();
    expect(page).toContain(`Dear ${ESCAPED}`);
    expect(page).not.toContain('&amp;#x27;');
  });
});
