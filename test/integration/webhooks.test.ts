import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageCommand, GetQueueAttributesCommand, GetQueueUrlCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { verifyWebhook } from '@mailroom/client';
import { Webhook } from 'standardwebhooks';
import { refreshConfig } from '../../shared/platform/core/config';
import { overrideServices, services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import type { WebhookJob } from '../../shared/notifications/webhooks/webhook-job';
import { webhookPayloadProblem } from '../../shared/notifications/webhooks/webhook-payloads';
import { webhookExamples } from '../../composition/openapi/webhooks-section';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type TestCloud } from './support/test-cloud';

/** One POST the receiver got. */
interface Hook {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: Record<string, any>;
  status: number;
  at: number;
}

/**
 * A webhook receiver on loopback that records every POST and fails the first N of an (path, event).
 * Every body is checked against its event's schema (shared/notifications/webhooks/webhook-payloads.ts, the one
 * the OpenAPI document and the client's types show); a mismatch fails the file in afterAll.
 */
class Receiver {
  readonly hooks: Hook[] = [];
  readonly mismatches: string[] = [];
  private readonly failures = new Map<string, number>();
  private server!: http.Server;
  base = '';

  async start() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, any> = {};
        try {
          body = JSON.parse(raw);
        } catch {
          /* recorded as is */
        }
        const path = req.url ?? '';
        const problem = webhookPayloadProblem(body);
        if (problem) this.mismatches.push(`${path}: ${problem}`);
        const key = `${path}|${body.event}`;
        const left = this.failures.get(key) ?? 0;
        const status = left > 0 ? 500 : 200;
        if (left > 0) this.failures.set(key, left - 1);
        this.hooks.push({ path, headers: req.headers as Record<string, string>, raw, body, status, at: Date.now() });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers 500 to the next `times` POSTs of `event` on `path`. */
  failNext(path: string, event: string, times: number) {
    this.failures.set(`${path}|${event}`, times);
  }

  find(predicate: (h: Hook) => boolean) {
    return this.hooks.filter(predicate);
  }

  /** Waits until `count` hooks match (15 s at most). */
  async waitFor(predicate: (h: Hook) => boolean, count = 1, timeoutMs = 15_000): Promise<Hook[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.find(predicate);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`Expected ${count} hooks, got ${found.length}: ${JSON.stringify(this.hooks.map((h) => [h.path, h.body.event, h.status]))}`);
      await sleep(50);
    }
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cloud: TestCloud;
let sqs: SQSClient;
const receiver = new Receiver();
const domain = 'hooks.example.org';
const previousBackoff = process.env.WEBHOOK_BACKOFF_SECONDS;

interface HookedProject {
  id: string;
  liveKey: string;
  testKey: string;
}

/** A project with a verified domain and the given webhook fields. */
async function hookedProject(fields: Record<string, unknown>): Promise<HookedProject> {
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: `Hooks ${randomUUID().slice(0, 6)}` });
  await updateProjectFields(db, created.project.id, fields);
  const now = new Date().toISOString();
  await putDomain(db, { project_id: created.project.id, domain, identity_id: 'i', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
  return { id: created.project.id, liveKey: created.liveKey, testKey: created.testKey };
}

async function send(key: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, { sender_email: `news@${domain}`, ...overrides }) });
  expect(res.status).toBeLessThan(300);
  return res.body.email_id as string;
}

async function secretOf(key: string): Promise<string> {
  const res = await cloud.api('GET', '/v1/webhooks/secret', { key });
  expect(res.status).toBe(200);
  return res.body.secret as string;
}

/** Both signatures of a received hook verify with `secret`: by hand, with the standardwebhooks library, and with the client's verifyWebhook. */
function expectSigned(hook: Hook, secret: string) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  expect(hook.headers['x-svc-signature']).toBe(`sha256=${createHmac('sha256', key).update(hook.raw).digest('hex')}`);
  expect(new Webhook(secret).verify(hook.raw, hook.headers)).toEqual(hook.body);
  expect(verifyWebhook(hook.raw, hook.headers, secret)).toEqual(hook.body);
}

/** Deliveries put straight on the webhooks queue (for kinds the test cannot produce end to end). */
async function enqueueJob(job: Partial<WebhookJob> & Pick<WebhookJob, 'project_id' | 'url' | 'event'>): Promise<WebhookJob> {
  const full: WebhookJob = { v: 1, delivery_id: `msg_${randomUUID()}`, slot: 'live', max_attempts: 5, ...job };
  await services().queue.sendBatch('webhooks', [full]);
  return full;
}

/** Reads the webhooks DLQ until a message with this delivery id shows up (and deletes it). */
async function waitInDlq(deliveryId: string, timeoutMs = 20_000): Promise<WebhookJob> {
  const attrs = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: cloud.queueUrls.webhooks, AttributeNames: ['RedrivePolicy'] }));
  const dlqArn = JSON.parse(attrs.Attributes?.RedrivePolicy ?? '{}').deadLetterTargetArn as string;
  expect(dlqArn).toMatch(/mailroom-webhooks-dlq$/);
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: dlqArn.split(':').pop() }));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 1 }));
    for (const m of out.Messages ?? []) {
      const job = JSON.parse(m.Body ?? '{}') as WebhookJob;
      if (job.delivery_id === deliveryId) {
        await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
        return job;
      }
    }
  }
  throw new Error(`${deliveryId} never reached the DLQ`);
}

async function failuresOf(key: string, query = ''): Promise<Record<string, any>> {
  const res = await cloud.api('GET', `/v1/webhooks/failures${query}`, { key });
  expect(res.status).toBe(200);
  return res.body;
}

async function waitForFailures(key: string, count: number, timeoutMs = 20_000): Promise<Record<string, any>[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await failuresOf(key);
    if (body.data.length >= count) return body.data;
    if (Date.now() > deadline) throw new Error(`Expected ${count} failures, got ${JSON.stringify(body)}`);
    await sleep(200);
  }
}

beforeAll(async () => {
  // One second between attempts instead of 30 s to 30 min (read at each retry by the worker).
  refreshConfig({ WEBHOOK_BACKOFF_SECONDS: '1,1,1,1' });
  await receiver.start();
  cloud = await startTestCloud();
  sqs = new SQSClient({});
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  refreshConfig({ WEBHOOK_BACKOFF_SECONDS: previousBackoff });
  sqs?.destroy();
  await cloud?.stop();
  await receiver.stop();
  expect(receiver.mismatches).toEqual([]);
});

/** An event of the documented example's shape, for this project (deliveries put straight on the queue are checked too). */
function documented(event: string, projectId: string, data: Record<string, unknown> = {}) {
  const example = webhookExamples[event] as { data: Record<string, unknown> };
  return { ...example, timestamp: new Date().toISOString(), project_id: projectId, data: { ...example.data, ...data } } as WebhookJob['event'];
}

describe('the webhook secret', () => {
  test('is created on first read (one secret even for concurrent first readers), stable, and replaced by rotate', async () => {
    const p = await hookedProject({});
    const first = await Promise.all([1, 2, 3, 4, 5].map(() => secretOf(p.liveKey)));
    expect(new Set(first).size).toBe(1);
    expect(first[0]).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(first[0].slice(6), 'base64')).toHaveLength(24);

    const rotated = await cloud.api('POST', '/v1/webhooks/secret/rotate', { key: p.liveKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ success: true, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(first[0]);
    expect(await secretOf(p.liveKey)).toBe(rotated.body.secret);
  });

  test('the test key reads and rotates the dev slot\'s own secret, never the live one', async () => {
    const p = await hookedProject({});
    const live = await secretOf(p.liveKey);
    const dev = await secretOf(p.testKey);
    expect(dev).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(dev).not.toBe(live);

    const rotated = await cloud.api('POST', '/v1/webhooks/secret/rotate', { key: p.testKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(dev);
    expect(rotated.body.secret).not.toBe(live);
    expect(await secretOf(p.testKey)).toBe(rotated.body.secret);
    expect(await secretOf(p.liveKey)).toBe(live);
  });

  test('needs a key', async () => {
    expect((await cloud.api('GET', '/v1/webhooks/secret', { key: null })).status).toBe(401);
  });
});

describe('deliveries through the whole pipeline', () => {
  let p: HookedProject;
  let secret: string;
  /** The dev slot's own secret, which the test key reads. */
  let devSecret: string;

  beforeAll(async () => {
    p = await hookedProject({
      webhook_url: `${receiver.base}/live`,
      webhook_url_dev: `${receiver.base}/dev`,
      inbound_webhook_environments: { staging: `${receiver.base}/staging` },
    });
    secret = await secretOf(p.liveKey);
    devSecret = await secretOf(p.testKey);
  });

  // Events reach the fan-out at least once (part 6); a repeat is the same delivery, its webhook-id
  // unchanged, which a receiver drops. Two deliveries of one event with different ids still count twice.
  const distinct = (hooks: Hook[]) => hooks.filter((h, i) => hooks.findIndex((o) => o.headers['webhook-id'] === h.headers['webhook-id']) === i);
  const ofActivity = (id: string, event?: string) => (h: Hook) => h.body.data?.activity_id === id && (!event || h.body.event === event);

  test('a live send: email.send and email.delivery on the live URL only, with the part-6 envelope and both signatures', async () => {
    const id = await send(p.liveKey, { recipient_email: 'reader@example.com' });
    const [sent] = await receiver.waitFor(ofActivity(id, 'email.send'));
    const [delivered] = await receiver.waitFor(ofActivity(id, 'email.delivery'));
    const activity = await cloud.waitForActivity(id, p.liveKey, (a) => a.current_status === 'delivered');

    for (const [hook, type] of [
      [sent, 'send'],
      [delivered, 'delivery'],
    ] as const) {
      expect(hook.path).toBe('/live');
      expect(Object.keys(hook.body).sort()).toEqual(['data', 'event', 'is_test', 'project_id', 'timestamp']);
      expect(hook.body).toMatchObject({ event: `email.${type}`, project_id: p.id, is_test: false });
      expect(new Date(hook.body.timestamp).toISOString()).toBe(hook.body.timestamp);
      expect(Object.keys(hook.body.data).sort()).toEqual(['activity_id', 'event_timestamp', 'event_type', 'message_id', 'recipient']);
      expect(hook.body.data).toMatchObject({ activity_id: id, message_id: activity.message_id, recipient: 'reader@example.com', event_type: type });
      expect(new Date(hook.body.data.event_timestamp).toISOString()).toBe(hook.body.data.event_timestamp);
      expect(hook.headers['x-svc-environment']).toBe('live');
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['user-agent']).toBe('Mailroom-Webhooks/1');
      expect(hook.headers['webhook-id']).toMatch(/^msg_/);
      expect(Math.abs(Number(hook.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(hook.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expectSigned(hook, secret);
    }
    expect(sent.headers['webhook-id']).not.toBe(delivered.headers['webhook-id']);
    await cloud.settled();
    expect(distinct(receiver.find(ofActivity(id))).map((h) => h.path)).toEqual(['/live', '/live']);
  });

  test('a test-key send goes only to the dev URL, with X-Svc-Environment dev and is_test true', async () => {
    const id = await send(p.testKey);
    const hooks = await receiver.waitFor(ofActivity(id), 2);
    await cloud.waitForActivity(id, p.testKey, (a) => a.current_status === 'delivered');
    await cloud.settled();
    const all = distinct(receiver.find(ofActivity(id)));
    expect(all.map((h) => h.body.event).sort()).toEqual(['email.delivery', 'email.send']);
    for (const hook of hooks) {
      expect(hook.path).toBe('/dev');
      expect(hook.headers['x-svc-environment']).toBe('dev');
      expect(hook.body.is_test).toBe(true);
      expect(hook.body).not.toHaveProperty('environment');
      expectSigned(hook, devSecret);
      expect(() => new Webhook(secret).verify(hook.raw, hook.headers)).toThrow();
      expect(() => verifyWebhook(hook.raw, hook.headers, secret)).toThrow('webhook-signature does not match');
      expect(() => verifyWebhook(hook.raw.replace('"is_test":true', '"is_test":false'), hook.headers, devSecret)).toThrow('webhook-signature does not match');
    }
  });

  test('a send with an environment goes only to that environment URL, and carries `environment`', async () => {
    const live = await send(p.liveKey, { environment: 'staging' });
    const test = await send(p.testKey, { environment: 'staging' });
    const liveHooks = await receiver.waitFor(ofActivity(live), 2);
    const testHooks = await receiver.waitFor(ofActivity(test), 2);
    await cloud.settled();
    expect(distinct(receiver.find(ofActivity(live)))).toHaveLength(2);
    expect(distinct(receiver.find(ofActivity(test)))).toHaveLength(2);
    for (const hook of liveHooks) {
      expect(hook.path).toBe('/staging');
      expect(hook.body).toMatchObject({ environment: 'staging', is_test: false });
      expect(hook.headers['x-svc-environment']).toBe('live');
      expectSigned(hook, secret);
    }
    for (const hook of testHooks) {
      expect(hook.path).toBe('/staging');
      expect(hook.body).toMatchObject({ environment: 'staging', is_test: true });
      expect(hook.headers['x-svc-environment']).toBe('dev');
      expectSigned(hook, devSecret);
    }
  });

  test('bounce@simulator: email.bounce with its type and subtype, then suppression.added to both slots', async () => {
    const id = await send(p.liveKey, { recipient_email: 'bounce@simulator.amazonses.com' });
    const [bounce] = await receiver.waitFor(ofActivity(id, 'email.bounce'));
    expect(bounce.path).toBe('/live');
    expect(bounce.body).toMatchObject({ event: 'email.bounce', project_id: p.id, is_test: false });
    expect(bounce.body.data).toMatchObject({
      activity_id: id,
      recipient: 'bounce@simulator.amazonses.com',
      event_type: 'bounce',
      bounce_type: 'Permanent',
      bounce_subtype: 'General',
      message_id: expect.any(String),
      event_timestamp: expect.any(String),
    });
    expectSigned(bounce, secret);

    const added = await receiver.waitFor((h) => h.body.event === 'suppression.added' && h.body.project_id === p.id && h.body.data.email === 'bounce@simulator.amazonses.com', 2);
    expect(added.map((h) => h.path).sort()).toEqual(['/dev', '/live']);
    for (const hook of added) {
      expect(hook.headers['x-svc-environment']).toBe(hook.path === '/live' ? 'live' : 'dev');
      expect(hook.body).not.toHaveProperty('is_test');
      expect(hook.body.data).toMatchObject({ reason: 'bounce', bounce_type: 'Permanent', bounce_subtype: 'General' });
      expectSigned(hook, hook.path === '/live' ? secret : devSecret);
    }
    expect(added[0].headers['webhook-id']).not.toBe(added[1].headers['webhook-id']);
  });

  test('after a rotation the next delivery is signed with the new secret only', async () => {
    const rotated = (await cloud.api('POST', '/v1/webhooks/secret/rotate', { key: p.liveKey })).body.secret as string;
    const id = await send(p.liveKey);
    const [hook] = await receiver.waitFor(ofActivity(id, 'email.send'));
    expectSigned(hook, rotated);
    expect(() => new Webhook(secret).verify(hook.raw, hook.headers)).toThrow();
    secret = rotated;
  });
});

describe('retries and failures', () => {
  test('a receiver failing 4 times gets the event on the 5th attempt, with the same webhook-id, about a backoff apart', async () => {
    const p = await hookedProject({ webhook_url: `${receiver.base}/flaky` });
    const secret = await secretOf(p.liveKey);
    receiver.failNext('/flaky', 'email.send', 4);
    const id = await send(p.liveKey);
    const attempts = await receiver.waitFor((h) => h.path === '/flaky' && h.body.event === 'email.send' && h.body.data.activity_id === id, 5, 30_000);
    expect(attempts.map((h) => h.status)).toEqual([500, 500, 500, 500, 200]);
    expect(new Set(attempts.map((h) => h.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((h) => h.raw)).size).toBe(1);
    for (let i = 1; i < attempts.length; i++) expect(attempts[i].at - attempts[i - 1].at).toBeGreaterThanOrEqual(900);
    attempts.forEach((h) => expectSigned(h, secret));
    await cloud.settled();
    expect(receiver.find((h) => h.path === '/flaky' && h.body.event === 'email.send')).toHaveLength(5);
    expect((await failuresOf(p.liveKey)).data).toEqual([]);
  }, 60_000);

  test('a receiver failing 5 times: exactly 5 attempts, then the DLQ, and listed once on GET /v1/webhooks/failures', async () => {
    const p = await hookedProject({ webhook_url: `${receiver.base}/dead` });
    receiver.failNext('/dead', 'email.send', 1000);
    const id = await send(p.liveKey);
    const attempts = await receiver.waitFor((h) => h.path === '/dead' && h.body.event === 'email.send', 5, 30_000);
    const deliveryId = attempts[0].headers['webhook-id'];
    const dead = await waitInDlq(deliveryId);
    expect(dead).toMatchObject({ delivery_id: deliveryId, project_id: p.id, url: `${receiver.base}/dead`, slot: 'live', max_attempts: 5, event: { event: 'email.send' } });
    expect(receiver.find((h) => h.path === '/dead' && h.body.event === 'email.send')).toHaveLength(5);

    const [failure] = await waitForFailures(p.liveKey, 1);
    const body = await failuresOf(p.liveKey);
    expect(body).toEqual({
      success: true,
      data: [
        {
          delivery_id: deliveryId,
          event: 'email.send',
          activity_id: id,
          url: `${receiver.base}/dead`,
          slot: 'live',
          attempts: 5,
          last_status: 500,
          last_error: 'HTTP 500',
          failed_at: expect.any(String),
        },
      ],
      pagination: { page: 1, per_page: 50, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null },
    });
    expect(Date.parse(failure.failed_at)).toBeGreaterThanOrEqual(attempts[4].at - 1_000);
    // The delivery event of the same mail went through; no other failure appears later.
    await cloud.settled();
    expect((await failuresOf(p.liveKey)).data).toHaveLength(1);
  }, 60_000);

  test('email.inbound gets a single attempt: recorded as failed, not retried, then passed to the DLQ', async () => {
    const p = await hookedProject({ webhook_url: `${receiver.base}/inbound` });
    receiver.failNext('/inbound', 'email.inbound', 1000);
    const activityId = randomUUID();
    const job = await enqueueJob({
      project_id: p.id,
      url: `${receiver.base}/inbound`,
      max_attempts: 1,
      event: documented('email.inbound', p.id, { activity_id: activityId, thread_id: activityId }),
    });
    await receiver.waitFor((h) => h.path === '/inbound' && h.body.data?.activity_id === activityId);
    const [failure] = await waitForFailures(p.liveKey, 1);
    expect(failure).toMatchObject({ delivery_id: job.delivery_id, event: 'email.inbound', activity_id: activityId, attempts: 1, last_status: 500 });
    await waitInDlq(job.delivery_id);
    expect(receiver.find((h) => h.path === '/inbound')).toHaveLength(1);
    expect((await failuresOf(p.liveKey)).data).toHaveLength(1);
  }, 60_000);

  test('failures are listed newest first and paginated', async () => {
    const p = await hookedProject({});
    receiver.failNext('/paged', 'domain.verified', 1000);
    const jobs: WebhookJob[] = [];
    for (let i = 0; i < 3; i++) {
      jobs.push(await enqueueJob({ project_id: p.id, url: `${receiver.base}/paged`, max_attempts: 1, event: documented('domain.verified', p.id, { domain: `d${i}.org` }) }));
      await waitForFailures(p.liveKey, i + 1);
      await sleep(20);
    }
    const all = await failuresOf(p.liveKey);
    expect(all.data.map((f: any) => f.delivery_id)).toEqual(jobs.map((j) => j.delivery_id).reverse());
    expect(all.data[0].activity_id).toBeNull();
    const second = await failuresOf(p.liveKey, '?page=2&per_page=2');
    expect(second.data.map((f: any) => f.delivery_id)).toEqual([jobs[0].delivery_id]);
    expect(second.pagination).toEqual({ page: 2, per_page: 2, total: 3, total_pages: 2, total_is_estimate: false, next_cursor: null });
    const first = await failuresOf(p.liveKey, '?per_page=2');
    const rest = await failuresOf(p.liveKey, `?per_page=2&cursor=${first.pagination.next_cursor}`);
    expect(rest.data.map((f: any) => f.delivery_id)).toEqual([jobs[0].delivery_id]);
    expect((await cloud.api('GET', '/v1/webhooks/failures?per_page=500', { key: p.liveKey })).status).toBe(400);
  }, 60_000);

  test('in AWS mode (ALLOW_PRIVATE_URLS false) a private address is refused without connecting', async () => {
    const p = await hookedProject({});
    const original = services().config;
    overrideServices({ config: { ...original, ALLOW_PRIVATE_URLS: 'false' } });
    try {
      const job = await enqueueJob({
        project_id: p.id,
        url: `${receiver.base}/private`,
        max_attempts: 1,
        event: documented('domain.failed', p.id),
      });
      const [failure] = await waitForFailures(p.liveKey, 1);
      expect(failure).toMatchObject({ delivery_id: job.delivery_id, last_status: null, last_error: expect.stringMatching(/private address/) });
    } finally {
      overrideServices({ config: original });
    }
    expect(receiver.find((h) => h.path === '/private')).toEqual([]);
  }, 60_000);
});
