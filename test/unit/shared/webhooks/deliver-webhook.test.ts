import { createHmac, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { attemptOf } from '../../../../functions/webhook-delivery/handler';
import type { Queue } from '../../../../shared/platform/core/ports';
import type { Db } from '../../../../shared/platform/store/client';
import { refreshConfig } from '../../../../shared/platform/core/config';
import { deliverWebhook } from '../../../../shared/notifications/webhooks/deliver-webhook';
import { itemBytes } from '../../../../shared/notifications/webhooks/delivery-log';
import type { WebhookJob } from '../../../../shared/notifications/webhooks/webhook-job';
import type { PostResult, WebhookPoster } from '../../../../shared/platform/adapters/webhook-poster';

const SECRET = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
const NOW = new Date('2026-03-04T05:06:07.000Z');

/** A table holding one project item (with or without a secret) and recording every write: the delivery log's apart. */
function fakeDb(project: Record<string, unknown> | undefined) {
  const puts: Record<string, unknown>[] = [];
  const logged: Record<string, unknown>[] = [];
  const updates: Record<string, unknown>[] = [];
  const send = jest.fn(async (command: unknown) => {
    if (command instanceof GetCommand) return { Item: project ? { pk: `PROJECT#${project.id}`, ...project } : undefined };
    if (command instanceof UpdateCommand) {
      updates.push(command.input as Record<string, unknown>);
      const value = (command.input.ExpressionAttributeValues as Record<string, string>)[':s'];
      if (project && !project.webhook_secret) project.webhook_secret = value;
      return { Attributes: { webhook_secret: project?.webhook_secret } };
    }
    if (command instanceof PutCommand) {
      const item = command.input.Item as Record<string, unknown>;
      (/^WH(DLV|PAYLOAD)#/.test(String(item.pk)) ? logged : puts).push(item);
      return {};
    }
    throw new Error(`unexpected ${String(command)}`);
  });
  const db = { doc: { send }, tableName: 't' } as unknown as Db;
  return { db, puts, updates, logged };
}

function fakeQueue() {
  const visibility: { queue: string; handle: string; seconds: number }[] = [];
  const queue: Queue = {
    send: async () => undefined,
    sendBatch: async () => undefined,
    changeVisibility: async (q, handle, seconds) => void visibility.push({ queue: q, handle, seconds }),
  };
  return { queue, visibility };
}

function fakePoster(results: PostResult[]) {
  const calls: { url: string; body: string; headers: Readonly<Record<string, string>> }[] = [];
  const poster: WebhookPoster = {
    post: async (url, body, headers) => {
      calls.push({ url, body, headers });
      return results.shift() ?? { ok: true, status: 200 };
    },
  };
  return { poster, calls };
}

const job = (overrides: Partial<WebhookJob> = {}): WebhookJob => ({
  v: 1,
  delivery_id: 'msg_1',
  project_id: 'p1',
  url: 'https://hooks.example.com/x',
  slot: 'live',
  max_attempts: 5,
  event: { event: 'email.delivery', timestamp: NOW.toISOString(), project_id: 'p1', is_test: false, data: { activity_id: 'act-1', event_type: 'delivery' } },
  ...overrides,
});

function setup(results: PostResult[], project: Record<string, unknown> | null = { id: 'p1', webhook_secret: SECRET }) {
  const { db, puts, updates, logged } = fakeDb(project ?? undefined);
  const { queue, visibility } = fakeQueue();
  const { poster, calls } = fakePoster(results);
  const deps = { db, queue, poster, clock: { now: () => NOW } };
  return { deps, puts, updates, logged, visibility, calls };
}

const FAIL: PostResult = { ok: false, status: 503, error: 'HTTP 503' };

describe('deliverWebhook', () => {
  const before = process.env.WEBHOOK_BACKOFF_SECONDS;
  beforeEach(() => refreshConfig({ WEBHOOK_BACKOFF_SECONDS: undefined }));
  afterAll(() => refreshConfig({ WEBHOOK_BACKOFF_SECONDS: before }));

  test('a 2xx: delivered, nothing else touched; the body is the event, signed with the project secret', async () => {
    const s = setup([{ ok: true, status: 200 }]);
    await expect(deliverWebhook(s.deps, job(), 1, 'rh')).resolves.toMatchObject({ kind: 'delivered', redeliver: false });
    expect(s.visibility).toEqual([]);
    expect(s.puts).toEqual([]);
    const [call] = s.calls;
    expect(call.url).toBe('https://hooks.example.com/x');
    expect(JSON.parse(call.body)).toEqual(job().event);
    const key = Buffer.alloc(24, 7);
    expect(call.headers['x-svc-signature']).toBe(`sha256=${createHmac('sha256', key).update(call.body).digest('hex')}`);
    expect(call.headers).toMatchObject({ 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW.getTime() / 1000), 'x-svc-environment': 'live' });
  });

  test('a delivery to the dev slot is signed with the dev secret (the one the test key reads), never the live one', async () => {
    const dev = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
    const s = setup([{ ok: true, status: 200 }], { id: 'p1', webhook_secret: SECRET, webhook_secret_dev: dev });
    await deliverWebhook(s.deps, job({ slot: 'dev', event: { ...job().event, is_test: true } }), 1, 'rh');
    const [call] = s.calls;
    const sign = (fill: number) => `sha256=${createHmac('sha256', Buffer.alloc(24, fill)).update(call.body).digest('hex')}`;
    expect(call.headers['x-svc-signature']).toBe(sign(9));
    expect(call.headers['x-svc-signature']).not.toBe(sign(7));
    expect(call.headers['x-svc-environment']).toBe('dev');
  });

  test.each([
    [1, 30],
    [2, 120],
    [3, 600],
    [4, 1800],
  ])('attempt %i fails: hidden for %i s and redelivered', async (attempt, seconds) => {
    const s = setup([FAIL]);
    await expect(deliverWebhook(s.deps, job(), attempt, 'rh')).resolves.toMatchObject({ kind: 'retry', redeliver: true, delaySeconds: seconds });
    expect(s.visibility).toEqual([{ queue: 'webhooks', handle: 'rh', seconds }]);
    expect(s.puts).toEqual([]);
  });

  test('WEBHOOK_BACKOFF_SECONDS replaces the schedule', async () => {
    refreshConfig({ WEBHOOK_BACKOFF_SECONDS: '1,2,3,4' });
    const s = setup([FAIL]);
    await deliverWebhook(s.deps, job(), 3, 'rh');
    expect(s.visibility).toEqual([{ queue: 'webhooks', handle: 'rh', seconds: 3 }]);
  });

  test('the 5th attempt of an outbound event fails: recorded once with a 30-day TTL, visible at once for the DLQ', async () => {
    const s = setup([{ ok: false, error: 'ECONNREFUSED: connect refused' }]);
    await expect(deliverWebhook(s.deps, job(), 5, 'rh')).resolves.toMatchObject({ kind: 'failed', redeliver: true });
    expect(s.visibility).toEqual([{ queue: 'webhooks', handle: 'rh', seconds: 0 }]);
    expect(s.puts).toHaveLength(1);
    expect(s.puts[0]).toEqual({
      pk: 'PROJECT#p1',
      sk: `WHFAIL#${NOW.toISOString()}#msg_1`,
      project_id: 'p1',
      delivery_id: 'msg_1',
      event: 'email.delivery',
      activity_id: 'act-1',
      url: 'https://hooks.example.com/x',
      slot: 'live',
      attempts: 5,
      last_status: null,
      last_error: 'ECONNREFUSED: connect refused',
      failed_at: NOW.toISOString(),
      ttl: NOW.getTime() / 1000 + 30 * 86_400,
    });
  });

  test('a receive beyond the last attempt does not POST or record; it goes on to the DLQ', async () => {
    const s = setup([]);
    await expect(deliverWebhook(s.deps, job(), 6, 'rh')).resolves.toMatchObject({ kind: 'exhausted', redeliver: true });
    expect(s.calls).toEqual([]);
    expect(s.puts).toEqual([]);
    expect(s.visibility).toEqual([{ queue: 'webhooks', handle: 'rh', seconds: 0 }]);
  });

  test('email.inbound: one attempt; its failure is recorded at once, later receives only pass it on', async () => {
    const inbound = job({ max_attempts: 1, event: { event: 'email.inbound', timestamp: NOW.toISOString(), project_id: 'p1', is_test: false, data: { activity_id: 'act-2' } } });
    const s = setup([FAIL, { ok: true, status: 200 }]);
    await expect(deliverWebhook(s.deps, inbound, 1, 'rh')).resolves.toMatchObject({ kind: 'failed' });
    for (const n of [2, 3, 4, 5]) await expect(deliverWebhook(s.deps, inbound, n, 'rh')).resolves.toMatchObject({ kind: 'exhausted' });
    expect(s.calls).toHaveLength(1);
    expect(s.puts).toHaveLength(1);
    expect(s.puts[0]).toMatchObject({ event: 'email.inbound', activity_id: 'act-2', attempts: 1, last_status: 503, last_error: 'HTTP 503' });
  });

  test('an event without an activity (a domain event) is recorded with activity_id null', async () => {
    const s = setup([FAIL]);
    await deliverWebhook(s.deps, job({ event: { event: 'domain.verified', timestamp: NOW.toISOString(), project_id: 'p1', data: { domain: 'x.org' } } }), 5, 'rh');
    expect(s.puts[0]).toMatchObject({ event: 'domain.verified', activity_id: null });
  });

  test('a project without a secret gets one on first need, stored with if_not_exists', async () => {
    const project: Record<string, unknown> = { id: 'p1' };
    const s = setup([{ ok: true, status: 200 }], project);
    await deliverWebhook(s.deps, job(), 1, 'rh');
    expect(s.updates).toHaveLength(1);
    expect(s.updates[0]).toMatchObject({ UpdateExpression: 'SET #s = if_not_exists(#s, :s)', ConditionExpression: 'attribute_exists(pk)' });
    expect(project.webhook_secret).toMatch(/^whsec_/);
    const key = Buffer.from((project.webhook_secret as string).slice(6), 'base64');
    expect(s.calls[0].headers['x-svc-signature']).toBe(`sha256=${createHmac('sha256', key).update(s.calls[0].body).digest('hex')}`);
  });

  test('a vanished project: dropped, nothing posted', async () => {
    const s = setup([], null);
    await expect(deliverWebhook(s.deps, job(), 1, 'rh')).resolves.toMatchObject({ kind: 'dropped', redeliver: false });
    expect(s.calls).toEqual([]);
  });

  test('a failing visibility change does not lose the outcome', async () => {
    const s = setup([FAIL]);
    s.deps.queue.changeVisibility = async () => {
      throw new Error('sqs down');
    };
    await expect(deliverWebhook(s.deps, job(), 2, 'rh')).resolves.toMatchObject({ kind: 'retry', redeliver: true });
  });
});

describe('every attempt goes to the delivery log', () => {
  const entryKey = (attempt: number) => ({ pk: expect.stringMatching(/^WHDLV#p1#\d{1,2}$/), sk: `${NOW.toISOString()}#msg_1#0${attempt}` });

  test('an attempt that succeeds: one entry of at most 1 KB with its status, duration, excerpt and the payload, kept 3 days', async () => {
    const s = setup([{ ok: true, status: 200, responseHead: Buffer.from('{"received":true}') }]);
    await deliverWebhook(s.deps, job(), 1, 'rh');
    expect(s.logged).toEqual([
      {
        ...entryKey(1),
        delivery_id: 'msg_1',
        event: 'email.delivery',
        activity_id: 'act-1',
        url: 'https://hooks.example.com/x',
        slot: 'live',
        attempt: 1,
        max_attempts: 5,
        outcome: 'succeeded',
        status: 200,
        error_kind: null,
        error: null,
        duration_ms: 0,
        response_excerpt: '{"received":true}',
        attempted_at: NOW.toISOString(),
        payload_gz: expect.any(Buffer),
        ttl: NOW.getTime() / 1000 + 3 * 86_400,
      },
    ]);
    expect(JSON.parse(gunzipSync(s.logged[0].payload_gz as Buffer).toString('utf8'))).toEqual(job().event);
    expect(itemBytes(s.logged[0])).toBeLessThanOrEqual(1024);
  });

  test('a later attempt that fails: its entry with the status, the error kind and the sanitized excerpt', async () => {
    const s = setup([{ ok: false, status: 503, error: 'HTTP 503', responseHead: Buffer.from('busy\u0000\u001b[31m') }]);
    await deliverWebhook(s.deps, job({ redelivery_of: 'msg_0' }), 3, 'rh');
    expect(s.logged).toHaveLength(1);
    expect(s.logged[0]).toMatchObject({ ...entryKey(3), outcome: 'failed', status: 503, error_kind: 'http_status', error: 'HTTP 503', response_excerpt: 'busy  [31m', redelivery_of: 'msg_0', payload_gz: expect.any(Buffer) });
  });

  test('no answer at all: status null and the kind of error', async () => {
    const s = setup([{ ok: false, error: 'Timed out after 10000 ms' }]);
    await deliverWebhook(s.deps, job(), 2, 'rh');
    expect(s.logged[0]).toMatchObject({ status: null, error_kind: 'timeout', error: 'Timed out after 10000 ms', response_excerpt: '' });
    expect(s.logged[0]).not.toHaveProperty('redelivery_of');
  });

  test('a payload too big for one write unit is left out of the entry (which cannot be redelivered), the excerpt kept', async () => {
    const big = job({ max_attempts: 1, event: { event: 'email.inbound', timestamp: NOW.toISOString(), project_id: 'p1', is_test: false, data: { activity_id: 'act-2', text: randomText(4_000) } } });
    const s = setup([{ ok: true, status: 200, responseHead: Buffer.from('x'.repeat(600)) }]);
    await deliverWebhook(s.deps, big, 1, 'rh');
    expect(s.logged).toHaveLength(1);
    expect(s.logged[0]).toMatchObject({ event: 'email.inbound', response_excerpt: 'x'.repeat(512) });
    expect(s.logged[0]).not.toHaveProperty('payload_gz');
  });

  test('the payload comes before the excerpt: a long answer is cut to the room left in 1 KB, a 2,000-character URL last', async () => {
    const small = setup([{ ok: false, status: 500, error: 'HTTP 500', responseHead: Buffer.from('é'.repeat(256)) }]);
    await deliverWebhook(small.deps, job(), 2, 'rh');
    expect(small.logged[0]).toMatchObject({ response_excerpt: 'é'.repeat(256), payload_gz: expect.any(Buffer) });

    const s = setup([{ ok: false, status: 500, error: 'HTTP 500', responseHead: Buffer.from('é'.repeat(256)) }]);
    await deliverWebhook(s.deps, job({ event: { ...job().event, data: { ...job().event.data, recipient: randomText(300) } } }), 2, 'rh');
    const excerpt = s.logged[0].response_excerpt as string;
    expect(itemBytes(s.logged[0])).toBeLessThanOrEqual(1024);
    expect(itemBytes(s.logged[0])).toBeGreaterThan(1020);
    expect(s.logged[0].payload_gz).toBeInstanceOf(Buffer);
    expect(excerpt.length).toBeGreaterThan(50);
    expect(excerpt.length).toBeLessThan(256);
    expect(excerpt).toBe('é'.repeat(excerpt.length));

    const url = `https://hooks.example.com/${'a'.repeat(2_000)}`;
    const long = setup([{ ok: false, status: 500, error: 'HTTP 500', responseHead: Buffer.from('é'.repeat(256)) }]);
    await deliverWebhook(long.deps, job({ url }), 2, 'rh');
    expect(itemBytes(long.logged[0])).toBeLessThanOrEqual(1024);
    expect(long.logged[0]).toMatchObject({ status: 500, error_kind: 'http_status', response_excerpt: '', url: expect.stringMatching(/^https:\/\/hooks\.example\.com\/a+…$/) });
    expect(long.logged[0]).not.toHaveProperty('payload_gz');
  });

  test('a log that cannot be written does not change the delivery\'s outcome', async () => {
    const s = setup([FAIL]);
    const send = s.deps.db.doc.send.bind(s.deps.db.doc) as (c: unknown) => Promise<unknown>;
    (s.deps.db.doc as { send: unknown }).send = async (command: unknown) => {
      if (command instanceof PutCommand && String(command.input.Item?.pk).startsWith('WHDLV#')) throw new Error('throttled');
      return send(command);
    };
    await expect(deliverWebhook(s.deps, job(), 5, 'rh')).resolves.toMatchObject({ kind: 'failed' });
    expect(s.puts).toHaveLength(1);
  });
});

/** Text that gzip cannot shrink much. */
function randomText(length: number): string {
  return randomBytes(length).toString('base64').slice(0, length);
}

describe('attemptOf', () => {
  test('is the receive count, 1 when absent', () => {
    expect(attemptOf({ attributes: { ApproximateReceiveCount: '3' } as never })).toBe(3);
    expect(attemptOf({ attributes: {} as never })).toBe(1);
    expect(attemptOf({ attributes: undefined as never })).toBe(1);
  });
});
