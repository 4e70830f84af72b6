import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { refreshConfig } from '../../shared/platform/core/config';
import { services } from '../../composition/services';
import { createProject } from '../../shared/platform/projects/project-service';
import type { WebhookJob } from '../../shared/notifications/webhooks/webhook-job';
import { webhookPayloadProblem } from '../../shared/notifications/webhooks/webhook-payloads';
import { webhookExamples } from '../../composition/openapi/webhooks-section';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/** One POST the receiver got. */
interface Hook {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: Record<string, any>;
  status: number;
}

/**
 * A webhook receiver on loopback: answers 200 `ok`, or 500 `nope` to the first N POSTs of a path,
 * and checks every body against its event's schema (a mismatch fails the file in afterAll).
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
        const body = JSON.parse(raw) as Record<string, any>;
        const path = req.url ?? '';
        const problem = webhookPayloadProblem(body);
        if (problem) this.mismatches.push(`${path}: ${problem}`);
        const left = this.failures.get(path) ?? 0;
        const status = left > 0 ? 500 : 200;
        if (left > 0) this.failures.set(path, left - 1);
        this.hooks.push({ path, headers: req.headers as Record<string, string>, raw, body, status });
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope\u0000');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers 500 to the next `times` POSTs on `path`. */
  failNext(path: string, times: number) {
    this.failures.set(path, times);
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
      if (Date.now() > deadline) throw new Error(`Expected ${count} hooks, got ${found.length}`);
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
const receiver = new Receiver();
const previousBackoff = process.env.WEBHOOK_BACKOFF_SECONDS;

interface HookedProject {
  id: string;
  liveKey: string;
}

async function hookedProject(): Promise<HookedProject> {
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: `Deliveries ${randomUUID().slice(0, 6)}` });
  return { id: created.project.id, liveKey: created.liveKey };
}

/** An event of the documented example's shape, for this project. */
function documented(event: string, projectId: string, data: Record<string, unknown> = {}) {
  const example = webhookExamples[event] as { data: Record<string, unknown> };
  return { ...example, timestamp: new Date().toISOString(), project_id: projectId, data: { ...example.data, ...data } } as WebhookJob['event'];
}

/** A delivery put straight on the webhooks queue, as the fan-out queues them. */
async function enqueueJob(job: Partial<WebhookJob> & Pick<WebhookJob, 'project_id' | 'url' | 'event'>): Promise<WebhookJob> {
  const full: WebhookJob = { v: 1, delivery_id: `msg_${randomUUID()}`, slot: 'live', max_attempts: 5, ...job };
  await services().queue.sendBatch('webhooks', [full]);
  return full;
}

async function deliveries(key: string, query = ''): Promise<Record<string, any>> {
  const res = await cloud.api('GET', `/v1/webhooks/deliveries${query}`, { key });
  expect(res.status).toBe(200);
  return res.body;
}

/** Waits until the log holds `count` entries (the worker writes each right after its POST). */
async function waitForDeliveries(key: string, count: number, timeoutMs = 15_000): Promise<Record<string, any>[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await deliveries(key, '?per_page=200');
    if (body.data.length >= count) return body.data;
    if (Date.now() > deadline) throw new Error(`Expected ${count} deliveries, got ${JSON.stringify(body)}`);
    await sleep(100);
  }
}

const redeliver = (key: string, id: string, headers: Record<string, string> = {}) => cloud.api('POST', `/v1/webhooks/deliveries/${id}/redeliver`, { key, headers });

beforeAll(async () => {
  refreshConfig({ WEBHOOK_BACKOFF_SECONDS: '1,1,1,1' });
  await receiver.start();
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);

afterAll(async () => {
  refreshConfig({ WEBHOOK_BACKOFF_SECONDS: previousBackoff });
  await cloud?.stop();
  await receiver.stop();
  expect(receiver.mismatches).toEqual([]);
});

describe('GET /v1/webhooks/deliveries', () => {
  let p: HookedProject;
  let ok: WebhookJob;
  let dead: WebhookJob;
  let flaky: WebhookJob;

  beforeAll(async () => {
    p = await hookedProject();
    receiver.failNext('/dead', 1000);
    receiver.failNext('/flaky', 1);
    ok = await enqueueJob({ project_id: p.id, url: `${receiver.base}/ok`, event: documented('email.delivery', p.id, { activity_id: randomUUID() }) });
    await waitForDeliveries(p.liveKey, 1);
    dead = await enqueueJob({ project_id: p.id, url: `${receiver.base}/dead`, max_attempts: 1, event: documented('domain.verified', p.id) });
    await waitForDeliveries(p.liveKey, 2);
    flaky = await enqueueJob({ project_id: p.id, url: `${receiver.base}/flaky`, event: documented('email.send', p.id, { activity_id: randomUUID() }) });
    await waitForDeliveries(p.liveKey, 4, 20_000);
  }, 60_000);

  test('a delivery that succeeds and one that fails appear with their status, error, duration and answer, newest first', async () => {
    const body = await deliveries(p.liveKey);
    expect(body.data.map((d: any) => [d.delivery_id, d.attempt, d.outcome])).toEqual([
      [flaky.delivery_id, 2, 'succeeded'],
      [flaky.delivery_id, 1, 'failed'],
      [dead.delivery_id, 1, 'failed'],
      [ok.delivery_id, 1, 'succeeded'],
    ]);
    const [, , failed, succeeded] = body.data;
    expect(succeeded).toEqual({
      id: expect.stringMatching(/^whd_[A-Za-z0-9_-]+$/),
      delivery_id: ok.delivery_id,
      event: 'email.delivery',
      activity_id: ok.event.data.activity_id,
      url: `${receiver.base}/ok`,
      slot: 'live',
      attempt: 1,
      max_attempts: 5,
      outcome: 'succeeded',
      status: 200,
      error_kind: null,
      error: null,
      duration_ms: expect.any(Number),
      response_excerpt: 'ok',
      attempted_at: expect.any(String),
      redelivery_of: null,
      redeliverable: true,
    });
    // The receiver's NUL is shown as a space.
    expect(failed).toMatchObject({ event: 'domain.verified', activity_id: null, max_attempts: 1, status: 500, error_kind: 'http_status', error: 'HTTP 500', response_excerpt: 'nope ' });
    expect(Date.parse(body.data[0].attempted_at)).toBeGreaterThanOrEqual(Date.parse(body.data[1].attempted_at));
    expect(body.pagination).toEqual({ page: 1, per_page: 50, total: 4, total_pages: 1, total_is_estimate: false, next_cursor: null });
  });

  test('filters by outcome and by event', async () => {
    const failed = await deliveries(p.liveKey, '?outcome=failed');
    expect(failed.data.map((d: any) => [d.delivery_id, d.attempt])).toEqual([
      [flaky.delivery_id, 1],
      [dead.delivery_id, 1],
    ]);
    expect(failed.pagination).toMatchObject({ total: 2, total_is_estimate: false, next_cursor: null });
    const succeeded = await deliveries(p.liveKey, '?outcome=succeeded&event=email.delivery');
    expect(succeeded.data.map((d: any) => d.delivery_id)).toEqual([ok.delivery_id]);
    expect((await deliveries(p.liveKey, '?event=email.bounce')).data).toEqual([]);
  });

  test('filters by activity_id: the deliveries of one mail\'s events', async () => {
    const mail = await deliveries(p.liveKey, `?activity_id=${String(flaky.event.data.activity_id).toUpperCase()}`);
    expect(mail.data.map((d: any) => [d.delivery_id, d.attempt, d.activity_id])).toEqual([
      [flaky.delivery_id, 2, flaky.event.data.activity_id],
      [flaky.delivery_id, 1, flaky.event.data.activity_id],
    ]);
    expect(mail.pagination).toMatchObject({ total: 2, total_is_estimate: false, next_cursor: null });
    expect((await deliveries(p.liveKey, `?activity_id=${randomUUID()}`)).data).toEqual([]);
  });

  test('pages by offset and by cursor', async () => {
    const second = await deliveries(p.liveKey, '?page=2&per_page=1');
    expect(second.data.map((d: any) => [d.delivery_id, d.attempt])).toEqual([[flaky.delivery_id, 1]]);
    expect(second.pagination).toMatchObject({ page: 2, per_page: 1, total: 4, total_pages: 4 });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Record<string, any> = await deliveries(p.liveKey, `?per_page=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.data.map((d: any) => `${d.delivery_id}#${d.attempt}`));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    expect(seen).toEqual([`${flaky.delivery_id}#2`, `${flaky.delivery_id}#1`, `${dead.delivery_id}#1`, `${ok.delivery_id}#1`]);

    const filtered: string[] = [];
    cursor = null;
    do {
      const page: Record<string, any> = await deliveries(p.liveKey, `?outcome=failed&per_page=1${cursor ? `&cursor=${cursor}` : ''}`);
      filtered.push(...page.data.map((d: any) => d.delivery_id));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    expect(filtered).toEqual([flaky.delivery_id, dead.delivery_id]);
  });

  test('refuses an unknown filter value, a bad cursor and an offset past 1,000', async () => {
    const event = await cloud.api('GET', '/v1/webhooks/deliveries?event=email.sent', { key: p.liveKey });
    expect(event.status).toBe(400);
    expect(JSON.stringify(event.body)).toMatch(/event must be one of email\.send/);
    const outcome = await cloud.api('GET', '/v1/webhooks/deliveries?outcome=ok', { key: p.liveKey });
    expect(outcome.status).toBe(400);
    expect(JSON.stringify(outcome.body)).toMatch(/outcome must be one of succeeded, failed/);
    const activity = await cloud.api('GET', '/v1/webhooks/deliveries?activity_id=not-a-uuid', { key: p.liveKey });
    expect(activity.status).toBe(400);
    expect(JSON.stringify(activity.body)).toMatch(/activity_id must be a uuid/);
    const forged = Buffer.from(JSON.stringify({ after: 'PROJECT#x' })).toString('base64url');
    expect((await cloud.api('GET', `/v1/webhooks/deliveries?cursor=${forged}`, { key: p.liveKey })).status).toBe(400);
    expect((await cloud.api('GET', '/v1/webhooks/deliveries?page=11&per_page=100', { key: p.liveKey })).status).toBe(400);
    expect((await cloud.api('GET', '/v1/webhooks/deliveries', { key: null })).status).toBe(401);
  });

  test('another project sees none of them', async () => {
    const other = await hookedProject();
    expect((await deliveries(other.liveKey)).data).toEqual([]);
  });
});

describe('POST /v1/webhooks/deliveries/{id}/redeliver', () => {
  test('posts the same payload again to the same URL as a new delivery, signed with the current secret, and logs it', async () => {
    const p = await hookedProject();
    receiver.failNext('/again', 1000);
    const job = await enqueueJob({ project_id: p.id, url: `${receiver.base}/again`, max_attempts: 1, event: documented('email.bounce', p.id, { activity_id: randomUUID() }) });
    const [first] = await receiver.waitFor((h) => h.headers['webhook-id'] === job.delivery_id);
    const [entry] = await waitForDeliveries(p.liveKey, 1);
    expect(entry).toMatchObject({ delivery_id: job.delivery_id, outcome: 'failed', redeliverable: true });
    receiver.failNext('/again', 0);

    // A secret rotated since: the redelivery is signed afresh, with the new one.
    const rotated = await cloud.api('POST', '/v1/webhooks/secret/rotate', { key: p.liveKey });
    const res = await redeliver(p.liveKey, entry.id);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ success: true, delivery_id: expect.stringMatching(/^msg_[0-9a-f-]{36}$/), redelivery_of: job.delivery_id });
    const newId = res.body.delivery_id as string;
    expect(newId).not.toBe(job.delivery_id);

    const [again] = await receiver.waitFor((h) => h.headers['webhook-id'] === newId);
    expect(again.path).toBe('/again');
    expect(again.raw).toBe(first.raw);
    expect(again.status).toBe(200);
    expect(new Webhook(rotated.body.secret as string).verify(again.raw, again.headers)).toEqual(first.body);

    const [latest] = await waitForDeliveries(p.liveKey, 2);
    expect(latest).toMatchObject({ delivery_id: newId, redelivery_of: job.delivery_id, outcome: 'succeeded', attempt: 1, max_attempts: 1, redeliverable: true });
  }, 60_000);

  test('with an Idempotency-Key a retried call answers the same new delivery and queues nothing more', async () => {
    const p = await hookedProject();
    await enqueueJob({ project_id: p.id, url: `${receiver.base}/idem`, event: documented('domain.send_ready', p.id) });
    const [entry] = await waitForDeliveries(p.liveKey, 1);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await redeliver(p.liveKey, entry.id, headers);
    const second = await redeliver(p.liveKey, entry.id, headers);
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.delivery_id).toBe(first.body.delivery_id);
    await receiver.waitFor((h) => h.headers['webhook-id'] === first.body.delivery_id);
    await cloud.settled();
    expect(receiver.find((h) => h.path === '/idem')).toHaveLength(2);
  }, 30_000);

  test('404 for another project\'s entry and for an unknown id; the owner\'s receiver gets nothing more', async () => {
    const owner = await hookedProject();
    const other = await hookedProject();
    const job = await enqueueJob({ project_id: owner.id, url: `${receiver.base}/private-to-owner`, event: documented('domain.send_ready', owner.id) });
    const [entry] = await waitForDeliveries(owner.liveKey, 1);
    const crossed = await redeliver(other.liveKey, entry.id);
    expect(crossed.status).toBe(404);
    expect(crossed.body).toMatchObject({ error: expect.stringMatching(/not found/i) });
    // The same position under another delivery id, the delivery id itself, and no id at all.
    const sk = Buffer.from(entry.id.slice(4), 'base64url').toString('utf8');
    expect((await redeliver(owner.liveKey, `whd_${Buffer.from(sk.replace(job.delivery_id, `msg_${randomUUID()}`)).toString('base64url')}`)).status).toBe(404);
    expect((await redeliver(owner.liveKey, job.delivery_id)).status).toBe(404);
    expect((await redeliver(owner.liveKey, 'whd_not-base64-of-a-key')).status).toBe(404);
    await cloud.settled();
    expect(receiver.find((h) => h.path === '/private-to-owner')).toHaveLength(1);
    expect((await cloud.api('POST', `/v1/webhooks/deliveries/${job.delivery_id}/redeliver`, { key: null })).status).toBe(401);
  }, 30_000);

  test('a payload too big to keep is logged as not redeliverable, and its redelivery is 404', async () => {
    const p = await hookedProject();
    const activityId = randomUUID();
    const job = await enqueueJob({
      project_id: p.id,
      url: `${receiver.base}/big`,
      max_attempts: 1,
      event: documented('email.inbound', p.id, { activity_id: activityId, thread_id: activityId, text: randomBytes(3_000).toString('base64') }),
    });
    const [entry] = await waitForDeliveries(p.liveKey, 1);
    expect(entry).toMatchObject({ delivery_id: job.delivery_id, outcome: 'succeeded', redeliverable: false });
    expect((await redeliver(p.liveKey, entry.id)).status).toBe(404);
  }, 30_000);
});
