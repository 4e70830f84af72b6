import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { putSuppression } from '../../shared/mail-pipeline/suppression/suppression-repository';
import { activityFromReplyAddress } from '../../shared/mail-pipeline/reply-token';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let cloud: TestCloud;
let files: http.Server;
let filesUrl: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  // A file server on loopback for attachments by URL (the local cloud allows private addresses).
  files = http.createServer((req, res) => {
    if (req.url === '/report.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(Buffer.from('%PDF-1.4 fake report'));
    } else if (req.url === '/five-mb.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(5 * 1024 * 1024, 7));
    } else if (req.url === '/huge.bin') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', () => r()));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  await new Promise((r) => files?.close(r));
  await cloud?.stop();
});

const send = (body: unknown, key?: string) => cloud.api('POST', '/v1/send-email', { body, key });
// With the mailbox simulator a mail that goes out ends `delivered`; waiting for that avoids racing it.
const untilFinal = (a: Record<string, unknown>) => !['queued', 'retrying', 'sent'].includes(a.current_status as string);

describe('POST /v1/send-email: validation (part 7)', () => {
  const too = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);
  const cases: [string, Record<string, unknown>, string][] = [
    ['no recipient_email', { recipient_email: undefined }, 'Missing required fields: recipient_email, sender_email, html_body'],
    ['no sender_email', { sender_email: undefined }, 'Missing required fields: recipient_email, sender_email, html_body'],
    ['no html_body', { html_body: undefined }, 'Missing required fields: recipient_email, sender_email, html_body'],
    ['an empty recipient list', { recipient_email: [] }, 'recipient_email must be a non-empty string or array of strings'],
    ['a numeric recipient', { recipient_email: 42 }, 'recipient_email must be a non-empty string or array of strings'],
    [
      '51 recipients',
      { recipient_email: too(51, 'r') },
      'Too many recipients in recipient_email (51). Maximum is 50. For larger sends use /v1/send-batch.',
    ],
    ['11 cc', { cc: too(11, 'c') }, 'cc accepts at most 10 addresses'],
    ['11 bcc', { bcc: too(11, 'b') }, 'bcc accepts at most 10 addresses'],
    ['attachments as an object', { attachments: { filename: 'a' } }, 'attachments must be an array'],
    [
      '11 attachments',
      { attachments: Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.txt`, content: 'aGk=' })) },
      'attachments accepts at most 10 items',
    ],
  ];

  test.each(cases)('%s gives 400 with the exact message', async (_name, overrides, message) => {
    const res = await send(sendBody(cloud, overrides));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: message });
  });

  test('50 recipients, 10 cc, 10 bcc and 10 attachments are accepted', async () => {
    const res = await send(
      sendBody(cloud, {
        recipient_email: too(50, 'r'),
        cc: too(10, 'c'),
        bcc: too(10, 'b'),
        attachments: Array.from({ length: 10 }, (_, i) => ({ filename: `${i}.txt`, content: 'aGk=' })),
      }),
    );
    expect(res.status).toBe(200);
  });

  test('a body that is not JSON is a 400', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { rawBody: '{"recipient_email":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Request body is not valid JSON' });
  });

  test('a body without Content-Type: application/json is a 400 that says so', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { rawBody: JSON.stringify(sendBody(cloud)), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Content-Type must be application/json' });
  });

  test('an environment with characters outside [a-zA-Z0-9_.-] is a 400', async () => {
    const res = await send(sendBody(cloud, { environment: 'staging env' }));
    expect(res.status).toBe(400);
  });

  test('an environment the project has not configured is ENVIRONMENT_NOT_CONFIGURED', async () => {
    const res = await send(sendBody(cloud, { environment: 'staging' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ENVIRONMENT_NOT_CONFIGURED');
  });
});

describe('POST /v1/send-email: accepted sends', () => {
  test('answers message, email_id and project_id before any SES call, with a queued record', async () => {
    const res = await send(sendBody(cloud));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['email_id', 'message', 'project_id']);
    expect(res.body.email_id).toMatch(UUID);
    expect(res.body.project_id).toBe(cloud.seed.project_id);
  });

  test('the mail reaches the SES outbox and the record becomes sent with the SES message id', async () => {
    const res = await send(
      sendBody(cloud, {
        recipient_email: ['Reader@Example.com', 'second@example.com'],
        cc: 'copy@example.com',
        bcc: ['hidden@example.com'],
        sender_name: 'Demo Team',
        subject: 'Quarterly report',
        html_body: '<h1>Report</h1><p>Numbers went up.</p>',
        attachments: [{ filename: 'notes.txt', content: Buffer.from('plain notes').toString('base64') }],
      }),
    );
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity).toMatchObject({
      current_status: 'delivered',
      recipient_primary: 'reader@example.com',
      subject: 'Quarterly report',
      sender_email: cloud.seed.sender_email,
      sender_name: 'Demo Team',
      email_type: 'api',
      is_test: false,
    });
    const mail = (await cloud.outbox()).find((m) => m.messageId === activity.message_id);
    expect(mail).toBeDefined();
    expect(mail?.from).toBe(`"Demo Team" <${cloud.seed.sender_email}>`);
    expect(mail?.subject).toBe('Quarterly report');
    expect(mail?.destination.cc).toEqual(['copy@example.com']);
    expect(mail?.attachments.map((a) => a.filename)).toEqual(['notes.txt']);
    // The Reply-To carries a token that leads back to this very activity.
    const secret = fs.readFileSync(path.join(path.dirname(cloud.outboxDir), 'token-secret'), 'utf8').trim();
    expect(activityFromReplyAddress(mail?.replyTo[0] ?? '', secret)).toBe(res.body.email_id);
  });

  test('the local cloud keeps the whole raw message as <message id>.eml, without Bcc', async () => {
    const res = await send(sendBody(cloud, { bcc: 'secret-bcc@example.com', text_body: 'Plain words' }));
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    const eml = fs.readFileSync(path.join(cloud.outboxDir, `${activity.message_id}.eml`), 'utf8');
    expect(eml).toMatch(/^Reply-To:\s+reply\+[0-9a-f]{48}@/m);
    expect(eml).toContain('Plain words');
    expect(eml).toContain('multipart/alternative');
    expect(eml).not.toContain('secret-bcc@example.com');
  });

  test('without a subject the default is "Email from <service name>"', async () => {
    const res = await send(sendBody(cloud, { subject: undefined }));
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity.subject).toBe('Email from Mailroom');
  });

  test('GET /v1/activity/:id?include=html,events shows the body and the sent event', async () => {
    const res = await send(sendBody(cloud, { html_body: '<p>Show me</p>' }));
    await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    const read = await cloud.api('GET', `/v1/activity/${res.body.email_id}?include=events,html`);
    expect(read.status).toBe(200);
    const data = read.body.data as Record<string, unknown>;
    expect(read.body.success).toBe(true);
    expect(data.html_content).toBe('<p>Show me</p>');
    expect((data.events as { event_type: string }[]).map((e) => e.event_type)).toEqual(['sent', 'delivered']);
    const plain = await cloud.api('GET', `/v1/activity/${res.body.email_id}`);
    expect(plain.body.data).not.toHaveProperty('html_content');
    expect(plain.body.data).not.toHaveProperty('events');
  });

  test('GET /v1/activity/:id?include=text,headers shows the text part and the headers as sent', async () => {
    const res = await send(sendBody(cloud, { subject: 'Headers', html_body: '<p>Show me</p>', text_body: 'Plain words', cc: 'copy@example.com' }));
    await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    const read = await cloud.api('GET', `/v1/activity/${res.body.email_id}?include=text,headers`);
    expect(read.status).toBe(200);
    const data = read.body.data as Record<string, any>;
    expect(data.text_content).toBe('Plain words');
    expect(data).not.toHaveProperty('html_content');
    expect(data.headers).toEqual(
      expect.arrayContaining([
        { name: 'From', value: cloud.seed.sender_email },
        { name: 'To', value: 'reader@example.com' },
        { name: 'Cc', value: 'copy@example.com' },
        { name: 'Subject', value: 'Headers' },
      ]),
    );
    // Without a text part, the one derived from the HTML, as the mail carried it.
    const derived = await send(sendBody(cloud, { html_body: '<p>Only HTML</p>' }));
    const plain = await cloud.api('GET', `/v1/activity/${derived.body.email_id}?include=text`);
    expect((plain.body.data as Record<string, unknown>).text_content).toBe('Only HTML');
    const bad = await cloud.api('GET', `/v1/activity/${derived.body.email_id}?include=body`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/include accepts events, html, text and headers, comma-separated \(got body\)/);
  });

  test('GET /v1/activity/:id is a 404 for an unknown id and a 400 for a non-uuid', async () => {
    expect((await cloud.api('GET', '/v1/activity/6f1d2c3b-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await cloud.api('GET', '/v1/activity/not-a-uuid')).status).toBe(400);
  });

  test('a send with a configured environment records it', async () => {
    const { db, clock } = services();
    const created = await createProject(db, clock, {
      organizationId: cloud.seed.organization_id,
      name: 'With environments',
      inboundWebhookEnvironments: { staging: 'https://hooks.example.com/staging' },
    });
    const now = new Date().toISOString();
    await putDomain(db, { project_id: created.project.id, domain: 'env.example.org', identity_id: 'x', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
    const res = await send(sendBody(cloud, { sender_email: 'a@env.example.org', environment: 'staging' }), created.liveKey);
    expect(res.status).toBe(200);
    const activity = await cloud.waitForActivity(res.body.email_id as string, created.liveKey, untilFinal);
    expect(activity).toMatchObject({ environment: 'staging', current_status: 'delivered' });
  });

  test('a payload too large for a queue message travels through S3 and still goes out whole', async () => {
    const html = `<p>${'All work and no play. '.repeat(15_000)}</p>`;
    const res = await send(sendBody(cloud, { html_body: html }));
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity.current_status).toBe('delivered');
    const read = await cloud.api('GET', `/v1/activity/${res.body.email_id}?include=html`);
    expect((read.body.data as Record<string, unknown>).html_content).toBe(html);
  });

  test('an attachment by URL is fetched in the background and attached', async () => {
    const res = await send(sendBody(cloud, { attachments: [{ filename: 'report.pdf', url: `${filesUrl}/report.pdf` }] }));
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity.current_status).toBe('delivered');
    const mail = (await cloud.outbox()).find((m) => m.messageId === activity.message_id);
    expect(mail?.attachments[0]).toMatchObject({ filename: 'report.pdf', contentType: 'application/pdf' });
    expect(Buffer.from(mail?.attachments[0].content ?? '', 'base64').toString()).toBe('%PDF-1.4 fake report');
  });

  test('a disabled project cannot send', async () => {
    const { db, clock } = services();
    const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'Disabled' });
    await updateProjectFields(db, created.project.id, { disabled_at: new Date().toISOString() });
    const res = await send(sendBody(cloud), created.liveKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Project is disabled; sending is stopped');
  });
});

describe('Request size: what API Gateway and Lambda carry (docs/decisions.md)', () => {
  const MB = 1024 * 1024;
  const inline = (rawBytes: number) => sendBody(cloud, { attachments: [{ filename: 'big.bin', content: Buffer.alloc(rawBytes, 5).toString('base64') }] });

  test('a body over 5 MB is refused with 413 and a message that points to attachments by URL', async () => {
    // 4 MB of attachment is 5.33 MB of base64: under Lambda's 6 MB, over the API's 5 MB.
    const res = await send(inline(4 * MB));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/^Request body is \d+ bytes; the API takes at most 5242880 bytes \(5 MB\)\. Send larger attachments by url\.$/);
  });

  test("a body whose event is over Lambda's 6 MB never reaches the service: API Gateway's 500", async () => {
    const res = await send(inline(4.6 * MB));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal Server Error' });
  });

  test('3.5 MB of inline attachment (4.7 MB of body) is accepted and sent', async () => {
    const res = await send(inline(3.5 * MB));
    expect(res.status).toBe(200);
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity.current_status).toBe('delivered');
  });

  test('10 MB of attachments by URL (part 8\'s full total) is fetched and sent', async () => {
    const res = await send(sendBody(cloud, { attachments: [{ filename: 'one.bin', url: `${filesUrl}/five-mb.bin` }, { filename: 'two.bin', url: `${filesUrl}/five-mb.bin` }] }));
    expect(res.status).toBe(200);
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity.current_status).toBe('delivered');
    const mail = (await cloud.outbox()).find((m) => m.messageId === activity.message_id);
    expect(mail?.attachments.map((a) => Buffer.from(a.content, 'base64').length)).toEqual([5 * MB, 5 * MB]);
  });
});

describe('Background decisions (part 3: queued -> failed | suppressed)', () => {
  test('an unreachable attachment URL fails the send with attachment_error', async () => {
    const res = await send(sendBody(cloud, { attachments: [{ filename: 'gone.pdf', url: `${filesUrl}/missing.pdf` }] }));
    expect(res.status).toBe(200);
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity).toMatchObject({ current_status: 'failed', error_code: 'attachment_error', message_id: null });
  });

  test('an attachment over 10 MB fails the send with attachment_error', async () => {
    const res = await send(sendBody(cloud, { attachments: [{ filename: 'huge.bin', url: `${filesUrl}/huge.bin` }] }));
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity).toMatchObject({ current_status: 'failed', error_code: 'attachment_error' });
  });

  test('a sender on a domain the project has not verified fails with sender_not_verified', async () => {
    const res = await send(sendBody(cloud, { sender_email: 'someone@unverified.example.net' }));
    expect(res.status).toBe(200);
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity).toMatchObject({ current_status: 'failed', error_code: 'sender_not_verified' });
  });

  test('a sender on a domain still pending verification fails too', async () => {
    const now = new Date().toISOString();
    await putDomain(services().db, {
      project_id: cloud.seed.project_id,
      domain: 'pending.example.net',
      identity_id: 'p',
      verification_status: 'pending',
      can_send: false,
      created_at: now,
      updated_at: now,
    });
    const res = await send(sendBody(cloud, { sender_email: 'a@pending.example.net' }));
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity).toMatchObject({ current_status: 'failed', error_code: 'sender_not_verified' });
  });

  test('a suppressed recipient makes the record suppressed and nothing is sent', async () => {
    await putSuppression(services().db, {
      project_id: cloud.seed.project_id,
      email: 'bounced@example.com',
      reason: 'bounce',
      source: 'test',
      suppressed_at: new Date().toISOString(),
    });
    const before = (await cloud.outbox()).length;
    const res = await send(sendBody(cloud, { recipient_email: 'Bounced@example.com' }));
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('skipped');
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity).toMatchObject({ current_status: 'suppressed', suppression_reason: 'bounce', message_id: null });
    expect((await cloud.outbox()).length).toBe(before);
  });

  test('with one of two recipients suppressed the mail goes to the other only', async () => {
    await putSuppression(services().db, {
      project_id: cloud.seed.project_id,
      email: 'complainer@example.com',
      reason: 'complaint',
      source: 'test',
      suppressed_at: new Date().toISOString(),
    });
    const res = await send(sendBody(cloud, { recipient_email: ['complainer@example.com', 'fan@example.com'] }));
    const activity = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, untilFinal);
    expect(activity.current_status).toBe('delivered');
    const mail = (await cloud.outbox()).find((m) => m.messageId === activity.message_id);
    expect(mail?.destination.to.join(',')).not.toContain('complainer@example.com');
    expect(mail?.destination.to.join(',')).toContain('fan@example.com');
  });
});
