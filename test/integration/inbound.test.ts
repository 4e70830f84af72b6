import fs from 'node:fs';
import path from 'node:path';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import type { WebhookJob } from '../../shared/notifications/webhooks/webhook-job';
import { webhookPayloadProblem } from '../../shared/notifications/webhooks/webhook-payloads';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * Inbound replies end to end in the local cloud: a send through /v1/send-email, a reply to its
 * Reply-To injected through POST /_local/inbound (as the SES receipt rule would store it), the
 * inbound function, the events queue and the webhook fan-out. The webhook deliveries themselves
 * are not run: the test reads the webhooks queue, where each message is one delivery (one URL),
 * which is where rule 4 and the single attempt show.
 */
// Each test waits for the send, the fan-out and a quiet period; the project-level testTimeout is not always applied.
jest.setTimeout(30_000);

let cloud: TestCloud;
let sqs: SQSClient;
let liveKey: string;
let testKey: string;
let projectId: string;
const domain = 'inbound.example.org';
const URLS = {
  webhook_url: 'https://hooks.example.com/live',
  webhook_url_dev: 'https://hooks.example.com/dev',
  inbound_webhook_url: 'https://hooks.example.com/inbound-live',
  inbound_webhook_url_dev: 'https://hooks.example.com/inbound-dev',
};

beforeAll(async () => {
  // The webhook fan-out runs; the delivery worker does not, so deliveries stay on the webhooks queue.
  cloud = await startTestCloud({ workers: ['send-worker', 'ses-events', 'webhook-fanout'] });
  sqs = new SQSClient({});
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'Replies' });
  ({ liveKey, testKey } = created);
  projectId = created.project.id;
  await updateProjectFields(db, projectId, URLS);
  const now = new Date().toISOString();
  await putDomain(db, { project_id: projectId, domain, identity_id: 'i', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  sqs?.destroy();
  await cloud?.stop();
  // Each payload the fan-out would deliver is the one its event's schema (and the OpenAPI document) describes.
  expect(deliveries.map((d) => webhookPayloadProblem(d.event)).filter(Boolean)).toEqual([]);
});

/** Every delivery seen on the webhooks queue (each read once, kept invisible). */
const deliveries: WebhookJob[] = [];
async function readDeliveries(): Promise<WebhookJob[]> {
  for (;;) {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.webhooks, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 900 }));
    if (!res.Messages?.length) return deliveries;
    deliveries.push(...res.Messages.map((m) => JSON.parse(m.Body ?? '{}') as WebhookJob));
  }
}
const inboundDeliveries = (activityId: string) => deliveries.filter((d) => d.event.event === 'email.inbound' && d.event.data.activity_id === activityId);

async function waitForInbound(activityId: string): Promise<WebhookJob[]> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    await readDeliveries();
    if (inboundDeliveries(activityId).length > 0) {
      // Anything more (a second delivery) would have been fanned out with it.
      await cloud.settled();
      await readDeliveries();
      return inboundDeliveries(activityId);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No email.inbound delivery for ${activityId}`);
}

/** Sends a mail and returns its activity, its Reply-To and its Message-ID, read from the raw mail SES got. */
async function sentMail(key: string) {
  const res = await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, { sender_email: `news@${domain}`, subject: 'Your order' }) });
  expect(res.status).toBe(200);
  const a = await cloud.waitForActivity(res.body.email_id as string, key, (x) => Boolean(x.message_id));
  const original = await simpleParser(fs.readFileSync(path.join(cloud.outboxDir, `${a.message_id as string}.eml`)));
  const replyTo = (original.replyTo?.value ?? [])[0]?.address as string;
  expect(replyTo).toMatch(/^reply\+[0-9a-f]{48}@/);
  return { id: a.id as string, replyTo, messageId: original.messageId as string };
}

function reply(to: string, inReplyTo: string, extra: Partial<ConstructorParameters<typeof MailComposer>[0]> = {}): Promise<Buffer> {
  return new MailComposer({
    from: 'Rea Der <reader@example.com>',
    to,
    subject: 'Re: Your order',
    messageId: `<reply-${Date.now()}@example.com>`,
    inReplyTo,
    references: inReplyTo,
    text: 'Where is it?\n\n> Your order',
    html: '<p>Where is it?</p>',
    attachments: [{ filename: 'receipt.txt', content: 'order 42', contentType: 'text/plain' }],
    ...extra,
  })
    .compile()
    .build();
}

async function inject(raw: Buffer, contentType = 'message/rfc822') {
  const res = await fetch(`${cloud.baseUrl}/_local/inbound`, { method: 'POST', headers: { 'content-type': contentType }, body: raw });
  return { status: res.status, body: (await res.json()) as { key: string; bucket: string; size: number; result: { results: { outcome: string; activity_id?: string }[] } } };
}

describe('an inbound reply, parsed and routed by rule 4', () => {
  test('live send: one email.inbound to inbound_webhook_url (before webhook_url), in a single attempt', async () => {
    const sent = await sentMail(liveKey);
    const res = await inject(await reply(sent.replyTo, sent.messageId));
    expect(res.status).toBe(202);
    expect(res.body.key).toMatch(/^inbound\/[0-9a-f-]{36}\.eml$/);
    expect(res.body.result.results).toEqual([{ key: res.body.key, outcome: 'published', activity_id: sent.id }]);

    const jobs = await waitForInbound(sent.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ url: URLS.inbound_webhook_url, slot: 'live', max_attempts: 1, project_id: projectId });
    const event = jobs[0].event;
    expect(event).toMatchObject({ event: 'email.inbound', project_id: projectId, is_test: false });
    expect(event).not.toHaveProperty('environment');
    expect(event.data).toMatchObject({
      activity_id: sent.id,
      thread_id: sent.id,
      in_reply_to: sent.messageId,
      from: { address: 'reader@example.com', name: 'Rea Der' },
      to: [{ address: sent.replyTo, name: null }],
      subject: 'Re: Your order',
      html: '<p>Where is it?</p>',
      attachments: [{ filename: 'receipt.txt', content_type: 'text/plain', size: 8, content: Buffer.from('order 42').toString('base64') }],
    });
    expect(event.data.text).toContain('Where is it?');
    expect(event.data.message_id).toMatch(/^<reply-\d+@example\.com>$/);
    expect(Date.parse(event.data.received_at as string)).not.toBeNaN();

    // The same S3 object delivered again (as S3 may): nothing more is published.
    const again = await fetch(`${cloud.baseUrl}/_local/inbound?key=${encodeURIComponent(res.body.key)}`, { method: 'POST' });
    expect(again.status).toBe(202);
    expect(((await again.json()) as { result: { results: { outcome: string }[] } }).result.results[0].outcome).toBe('duplicate');
    await cloud.settled();
    await readDeliveries();
    expect(inboundDeliveries(sent.id)).toHaveLength(1);
  });

  test('test-key send: one email.inbound to inbound_webhook_url_dev, with is_test true', async () => {
    const sent = await sentMail(testKey);
    const res = await inject(await reply(sent.replyTo, sent.messageId), 'text/plain');
    expect(res.body.result.results[0].outcome).toBe('published');
    const jobs = await waitForInbound(sent.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ url: URLS.inbound_webhook_url_dev, slot: 'dev', max_attempts: 1 });
    expect(jobs[0].event).toMatchObject({ is_test: true, data: { activity_id: sent.id, thread_id: sent.id } });
  });
});

describe('size', () => {
  test('a reply just under 150 KB (100 KB attachment, about 137 KB encoded) is published whole', async () => {
    const sent = await sentMail(liveKey);
    const content = Buffer.alloc(100 * 1024, 'x');
    const raw = await reply(sent.replyTo, sent.messageId, { attachments: [{ filename: 'scan.pdf', content, contentType: 'application/pdf' }] });
    expect(raw.length).toBeGreaterThan(130 * 1024);
    expect(raw.length).toBeLessThan(150 * 1024);
    const res = await inject(raw);
    expect(res.body.result.results[0].outcome).toBe('published');
    const [job] = await waitForInbound(sent.id);
    expect(job.event.data.attachments).toEqual([{ filename: 'scan.pdf', content_type: 'application/pdf', size: content.length, content: content.toString('base64') }]);
  });
});

describe('replies that publish nothing', () => {
  test('a reply over 150 KB bounces: the replier gets an "Undeliverable" mail', async () => {
    const sent = await sentMail(liveKey);
    const raw = await reply(sent.replyTo, sent.messageId, {
      from: 'big.sender@example.com',
      subject: 'Re: photos',
      attachments: [{ filename: 'photo.jpg', content: Buffer.alloc(200 * 1024, 9), contentType: 'image/jpeg' }],
    });
    const res = await inject(raw);
    expect(res.body.result.results[0]).toMatchObject({ outcome: 'bounced', activity_id: sent.id });
    const bounce = (await cloud.outbox()).find((m) => m.destination.to.includes('big.sender@example.com'));
    expect(bounce).toBeDefined();
    expect(bounce?.subject).toBe('Undeliverable: Re: photos');
    expect(bounce?.from).toContain('mailer-daemon@');
    expect(bounce?.body.text).toContain('150 KB');

    await cloud.settled();
    await readDeliveries();
    expect(inboundDeliveries(sent.id)).toEqual([]);
  });

  test('a tampered token is dropped', async () => {
    const sent = await sentMail(liveKey);
    const tampered = sent.replyTo.replace(/[0-9a-f](?=@)/, (c) => (c === '0' ? '1' : '0'));
    const res = await inject(await reply(tampered, sent.messageId));
    expect(res.body.result.results[0].outcome).toBe('bad_token');
    await cloud.settled();
    await readDeliveries();
    expect(inboundDeliveries(sent.id)).toEqual([]);
  });

  test('the local route takes raw MIME only, and is not part of the API', async () => {
    const res = await fetch(`${cloud.baseUrl}/_local/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(415);
    const { routeTable: routes } = await import('../../functions/route-table');
    expect(routes.some((r) => r.path.startsWith('/_local'))).toBe(false);
  });
});
