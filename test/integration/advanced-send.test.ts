import fs from 'node:fs';
import path from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { overrideServices, services } from '../../composition/services';
import type { Queue } from '../../shared/platform/core/ports';
import { getProject } from '../../shared/platform/projects/project-repository';
import { sendScheduledNow as sendScheduledNowCode } from '../../shared/mail-pipeline/sending/advanced-send';
import { CLOUD_TIMEOUT_MS, startTestCloud, storedActivity, type TestCloud } from './support/test-cloud';
import { asFunctionCode } from '../../local/iam/function-roles';

// The worker's own code, called in place of its handler: run as its function's role.
const sendScheduledNow = asFunctionCode('scheduled-send-worker', sendScheduledNowCode);

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** Long header lines are folded in MIME; unfold them to read a header whole. */
const unfolded = (eml: string) => eml.replace(/\r?\n[ \t]+/g, ' ');
const rawMail = (messageId: string) => unfolded(fs.readFileSync(path.join(cloud.outboxDir, `${messageId}.eml`), 'utf8'));

const send = (body: Record<string, unknown>, headers: Record<string, string> = {}, key?: string) =>
  cloud.api('POST', '/send-email', { body, headers, key });
const base = (over: Record<string, unknown> = {}) => ({
  recipient: 'reader@example.com',
  sender: cloud.seed.sender_email,
  subject: 'Hello',
  html: '<p>Hello there, <a href="https://example.com/offer">see the offer</a></p>',
  ...over,
});

/** Waits until the activity has gone out and returns its raw MIME. */
async function sentMime(emailId: string): Promise<string> {
  const activity = await cloud.waitForActivity(emailId, cloud.seed.live_key, (a) => Boolean(a.message_id));
  return rawMail(activity.message_id as string);
}

/** Every item of the table, to prove that a dry run writes nothing. */
async function tableItems(): Promise<number> {
  const { db } = services();
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.doc.send(new ScanCommand({ TableName: db.tableName, Select: 'COUNT', ExclusiveStartKey: start }));
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

describe('POST /send-email: errors', () => {
  test.each([
    [{}, 400, 'Missing required fields: recipient, sender, subject, html (or templateId)'],
    [{ recipient: 'a@example.com', sender: 'b@example.com', subject: 'x' }, 400, 'Missing required fields: html (or templateId)'],
    [{ recipient: 'a@example.com', sender: 'b@example.com', templateId: '00000000-0000-4000-8000-000000000000' }, 404, 'Template not found with ID 00000000-0000-4000-8000-000000000000'],
    [{ recipient: 'a@example.com', sender: 'b@example.com', subject: 'x', html: '<p>x</p>', environment: 'nope' }, 400, 'ENVIRONMENT_NOT_CONFIGURED'],
    [{ recipient: 'a@example.com', sender: 'b@example.com', subject: 'x', html: '<p>x</p>', scheduled_at: '2020-01-01T00:00:00Z' }, 400, 'scheduled_at must be in the future'],
    [{ recipient: 'a@example.com', sender: 'b@example.com', subject: 'x', html: '<p>x</p>', scheduled_at: 'yesterday at 3pm' }, 400, 'scheduled_at must be in the future'],
    [{ recipient: 'a@example.com', sender: 'b@example.com', subject: 'x', html: '<p>x</p>', custom_headers: { Bcc: 'x@example.com' } }, 400, 'custom_headers may not set Bcc'],
  ])('%j gives %i %s', async (body, status, message) => {
    const res = await send(body);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(message);
  });

  test('an unknown x-source is refused', async () => {
    const res = await send(base(), { 'x-source': 'cron' });
    expect(res).toMatchObject({ status: 400, body: { error: 'x-source must be one of api, platform, test' } });
  });
});

describe('POST /send-email: immediate sends', () => {
  test('answers success with an email_id per recipient, and sends one mail to each', async () => {
    const res = await send(base({ recipient: ['one@example.com', 'Two@Example.com'] }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, project_id: cloud.seed.project_id });
    const emails = res.body.emails as { recipient: string; email_id: string }[];
    expect(emails.map((e) => e.recipient)).toEqual(['one@example.com', 'two@example.com']);
    expect(res.body.email_id).toBe(emails[0].email_id);
    expect(new Set(emails.map((e) => e.email_id)).size).toBe(2);
    for (const { recipient, email_id } of emails) {
      const activity = await cloud.waitForActivity(email_id, cloud.seed.live_key, (a) => a.current_status === 'delivered');
      expect(activity).toMatchObject({ recipient_primary: recipient, email_type: 'transactional' });
      const eml = rawMail(activity.message_id as string);
      expect(eml).toMatch(new RegExp(`^To: ${recipient}`, 'm'));
    }
  });

  test('cc reaches the MIME, bcc only the envelope: Bcc never appears in the headers', async () => {
    const res = await send(base({ recipient: 'main@example.com', cc: ['copy@example.com'], bcc: 'hidden@example.com' }));
    const eml = await sentMime(res.body.email_id as string);
    expect(eml).toMatch(/^Cc: copy@example\.com/m);
    expect(eml).not.toContain('hidden@example.com');
    // The SES emulator shows only what the MIME says; the record counts the envelope's recipients.
    expect((await storedActivity(res.body.email_id as string))?.recipient_count).toBe(3);
  });

  test('threading headers, custom headers and the sender name reach the MIME', async () => {
    const res = await send(
      base({
        senderName: 'Support Team',
        in_reply_to: 'original-123@mail.example.com',
        references: ['<root-1@mail.example.com>'],
        custom_headers: { 'X-Ticket': 'T-42', 'X-Priority': '1' },
        thread_id: 'ticket-42',
      }),
    );
    const eml = await sentMime(res.body.email_id as string);
    expect(eml).toMatch(/^In-Reply-To: <original-123@mail\.example\.com>/m);
    expect(eml).toMatch(/^References: <root-1@mail\.example\.com> <original-123@mail\.example\.com>/m);
    expect(eml).toMatch(/^X-Ticket: T-42/m);
    expect(eml).toMatch(/^X-Priority: 1/m);
    expect(eml).toMatch(/^From: Support Team <hello@demo\.mailroom\.test>/m);
    // Replies come back through the reply token, so inbound webhooks can match them.
    expect(eml).toMatch(/^Reply-To: reply\+[0-9a-f]+@/m);
  });

  test('text and attachments reach the MIME', async () => {
    const res = await send(base({ text: 'Plain words here', attachments: [{ filename: 'note.txt', content: Buffer.from('attached text').toString('base64') }] }));
    const eml = await sentMime(res.body.email_id as string);
    expect(eml).toContain('Plain words here');
    expect(eml).toMatch(/filename=note\.txt/);
    expect(eml).toContain(Buffer.from('attached text').toString('base64'));
  });

  test('transactional mail goes out untracked and without unsubscribe headers', async () => {
    const res = await send(base());
    const eml = await sentMime(res.body.email_id as string);
    expect(eml).not.toMatch(/^List-Unsubscribe/m);
    expect(eml.replace(/=\r?\n/g, '')).toContain('https://example.com/offer');
    expect(eml.replace(/=\r?\n/g, '')).not.toMatch(/\/t\/[oc]\//);
  });

  test('marketing mail gets tracking, the RFC 8058 headers and the unsubscribe footer', async () => {
    const res = await send(base({ email_type: 'marketing' }));
    const eml = await sentMime(res.body.email_id as string);
    const body = eml.replace(/=\r?\n/g, '');
    expect(eml).toMatch(/^List-Unsubscribe: <http:\/\/localhost:\d+\/u\/[^>]+>, <mailto:/m);
    expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(body).toMatch(/\/t\/c\//);
    expect(body).toMatch(/\/t\/o\//);
    expect(body).toMatch(/\/u\/[A-Za-z0-9_-]+/);
  });

  test('a stored template is rendered with data; activity names the template, thread, source and campaign', async () => {
    const created = await cloud.api('POST', '/v1/templates', {
      body: { name: 'Receipt', subject: 'Receipt {{order}}', html: '<p>Thanks {{capitalize name}}, order {{order}}.</p>' },
    });
    const template = created.body.data as { id: string; internal_id: number };
    const campaign = '6a1f0c1e-0d6c-4f7e-9a51-0c2f8a1b2c3d';
    const res = await send(
      { recipient: 'buyer@example.com', sender: cloud.seed.sender_email, templateId: template.id, data: { name: 'ada', order: 'A-7' }, thread_id: 'conv-9', campaign_id: campaign },
      { 'x-source': 'platform' },
    );
    expect(res.status).toBe(200);
    const eml = await sentMime(res.body.email_id as string);
    expect(eml).toMatch(/^Subject: Receipt A-7/m);
    expect(eml).toContain('Thanks Ada, order A-7.');
    const activity = await cloud.api('GET', `/v1/activity/${res.body.email_id as string}`);
    expect(activity.body.data).toMatchObject({ template_id: template.id, thread_id: 'conv-9', source: 'platform', campaign_id: campaign });

    const byInternalId = await send({ recipient: 'buyer@example.com', sender: cloud.seed.sender_email, templateId: template.internal_id, data: { name: 'bo', order: 'A-8' } });
    expect(byInternalId.status).toBe(200);
    expect((await storedActivity(byInternalId.body.email_id as string))?.template_id).toBe(template.id);
  });

  test('a test key sends too, flagged is_test', async () => {
    const res = await send(base(), {}, cloud.seed.test_key);
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.test_key, (a) => a.current_status === 'delivered');
    expect(activity.is_test).toBe(true);
  });
});

describe('POST /send-email: dry run', () => {
  test('answers the preview and writes nothing anywhere', async () => {
    const outboxBefore = (await cloud.outbox()).length;
    const itemsBefore = await tableItems();
    const res = await send(
      base({
        dry_run: true,
        recipient: ['a@example.com', 'b@example.com'],
        cc: 'c@example.com',
        senderName: 'News',
        subject: 'Hi {{name}}',
        html: '<p>Hello {{name}}, {{missing}}</p>',
        data: { name: 'Ann' },
      }),
      { 'Idempotency-Key': 'dry-run-key' },
      cloud.seed.test_key,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      dry_run: true,
      test_mode: true,
      sample_cart_items_injected: false,
      would_send: {
        to: ['a@example.com', 'b@example.com'],
        cc: ['c@example.com'],
        bcc: [],
        from: `News <${cloud.seed.sender_email}>`,
        subject: 'Hi Ann',
        html_preview: '<p>Hello Ann, {{missing}}</p>',
        text_preview: null,
        template_id: null,
        variables_used: ['missing', 'name'],
      },
    });
    // Let the workers finish whatever was queued: nothing may appear.
    await cloud.settled();
    expect(await tableItems()).toBe(itemsBefore);
    expect((await cloud.outbox()).length).toBe(outboxBefore);
  });

  test('cuts html_preview to 8000 characters', async () => {
    const res = await send(base({ dry_run: true, html: `<p>${'x'.repeat(9000)}</p>` }));
    expect(((res.body.would_send as Record<string, unknown>).html_preview as string).length).toBe(8000);
    expect(res.body.test_mode).toBe(false);
  });

  test('injects sample cart items when the template loops over a cart the data lacks', async () => {
    const created = await cloud.api('POST', '/v1/templates', {
      body: { name: 'Cart', subject: 'Your cart', html: '<ul>{{#each cart_items}}<li>{{name}}</li>{{/each}}</ul>' },
    });
    const template = created.body.data as { id: string };
    const res = await send({ recipient: 'a@example.com', sender: cloud.seed.sender_email, templateId: template.id, dry_run: true });
    expect(res.body.sample_cart_items_injected).toBe(true);
    expect(res.body.would_send).toMatchObject({ template_id: template.id, subject: 'Your cart', variables_used: ['cart_items'] });
    expect((res.body.would_send as Record<string, string>).html_preview).toContain('<li>Sample product</li>');
  });

  test('still checks scheduled_at, and previews what a scheduled send keeps', async () => {
    const past = await send(base({ dry_run: true, scheduled_at: '2020-01-01T00:00:00Z' }));
    expect(past).toMatchObject({ status: 400, body: { error: 'scheduled_at must be in the future' } });
    const future = await send(base({ dry_run: true, recipient: ['a@example.com', 'b@example.com'], cc: 'c@example.com', scheduled_at: 'in 2 hours' }));
    expect(future.body.would_send).toMatchObject({ to: ['a@example.com'], cc: [] });
    expect(future.body.timezone).toBe('UTC');
  });
});

describe('POST /send-email: scheduled answer (part 4.5)', () => {
  test('natural language in the given zone', async () => {
    const res = await send(base({ scheduled_at: 'tomorrow at 3pm', timezone: 'Asia/Tokyo' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, scheduled: true, timezone: 'Asia/Tokyo' });
    expect(res.body.scheduled_send_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.scheduled_for).toMatch(/^\d{4}-\d{2}-\d{2}T06:00:00\.000Z$/);
    expect(res.body.scheduled_for_local).toMatch(/T15:00:00\.000\+09:00$/);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.warnings).toBeUndefined();
  });

  test('an ISO time with an offset fixes the instant and labels the zone by its offset', async () => {
    const at = new Date(Date.now() + 3 * 24 * 3600_000);
    const local = new Date(at.getTime() + 9 * 3600_000).toISOString().slice(0, 19);
    const res = await send(base({ scheduled_at: `${local}+09:00`, timezone: 'Europe/Berlin' }));
    expect(res.body).toMatchObject({ scheduled: true, timezone: 'UTC+9', scheduled_for: `${at.toISOString().slice(0, 19)}.000Z` });
  });

  test('says what a scheduled send does not keep', async () => {
    const res = await send(base({ scheduled_at: 'in 3 hours', recipient: ['a@example.com', 'b@example.com'], cc: 'c@example.com', senderName: 'X' }));
    expect(res.body.warnings).toEqual(['Only the first recipient is scheduled; 1 other recipient was ignored', 'cc, senderName are not kept on scheduled sends']);
    const stored = await cloud.api('GET', `/v1/scheduled-sends/${res.body.scheduled_send_id as string}`);
    expect(stored.status).toBe(200);
    expect(JSON.stringify(stored.body)).toContain('a@example.com');
    expect(JSON.stringify(stored.body)).not.toContain('b@example.com');
  });
});

describe('sending a scheduled send at its time', () => {
  test('is idempotent, and a failed enqueue leaves the record queued for the redelivery', async () => {
    const project = await getProject(services().db, cloud.seed.project_id);
    const caller = { kind: 'project' as const, mode: 'live' as const, project: project! };
    const content = {
      recipient: 'later@example.com',
      sender: cloud.seed.sender_email,
      subject: 'Later',
      html: '<p>Hi {{name}}</p>',
      data: { name: 'Lea' },
      emailType: 'transactional' as const,
      customHeaders: {},
      references: [],
    };
    const activityId = randomUUID();
    const real = services().queue;
    const failing: Queue = { ...real, send: async () => Promise.reject(new Error('SQS unavailable')), sendBatch: async () => Promise.reject(new Error('SQS unavailable')) };
    overrideServices({ queue: failing });
    try {
      await expect(sendScheduledNow(services(), caller, content, activityId)).rejects.toMatchObject({ status: 502 });
    } finally {
      overrideServices({ queue: real });
    }
    expect((await storedActivity(activityId))?.current_status).toBe('queued');

    await sendScheduledNow(services(), caller, content, activityId);
    const activity = await cloud.waitForActivity(activityId, cloud.seed.live_key, (a) => a.current_status === 'delivered');
    await sendScheduledNow(services(), caller, content, activityId);
    await cloud.settled();
    expect((await cloud.outbox()).filter((m) => m.destination.to.includes('later@example.com'))).toHaveLength(1);
    expect(rawMail(activity.message_id as string)).toContain('Hi Lea');
  });
});
