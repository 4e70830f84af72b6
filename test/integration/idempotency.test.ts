import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { overrideServices, services } from '../../composition/services';
import { hashIdempotencyKey } from '../../shared/platform/idempotency/idempotency-key';
import { claimIdempotencyKey } from '../../shared/platform/idempotency/idempotency-repository';
import { requestFingerprint } from '../../shared/platform/idempotency/request-fingerprint';
import type { Queue } from '../../shared/platform/core/ports';
import { idempotencyKey } from '../../shared/platform/store/keys';
import { CLOUD_TIMEOUT_MS, sendBody, startTestCloud, type ApiAnswer, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

let n = 0;
const freshKey = () => `order-${Date.now().toString(36)}-${n++}`;
/** A recipient of its own per test, to count its activities and mails. */
const freshRecipient = () => `idem-${Date.now().toString(36)}-${n++}@example.com`;
const body = (over: Record<string, unknown> = {}) => ({ recipient: 'a@example.com', sender: cloud.seed.sender_email, subject: 'Hi', html: '<p>Hi</p>', ...over });
const send = (key: string | undefined, payload: unknown, apiKey?: string) =>
  cloud.api('POST', '/send-email', { body: payload, key: apiKey, headers: key === undefined ? {} : { 'idempotency-key': key } });
const replayed = (res: ApiAnswer) => res.headers.get('idempotency-replayed');

/** Activities of a recipient, as the API lists them. */
async function activityCount(recipient: string, apiKey = cloud.seed.live_key): Promise<number> {
  const res = await cloud.api('GET', `/v1/activity?email=${encodeURIComponent(recipient)}`, { key: apiKey });
  return (res.body.pagination as { total: number }).total;
}

/** The stored record of a key of the seed project, read straight from the table. */
async function storedRecord(key: string, projectId = cloud.seed.project_id) {
  const { db } = services();
  return (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: idempotencyKey(projectId, hashIdempotencyKey(key)), ConsistentRead: true }))).Item;
}

describe('POST /v1/send-email and /v1/send-template-email honour Idempotency-Key (an extension of part 8)', () => {
  test.each(['/v1/send-email', '/v1/send-template-email'])('%s: a repeat gets the first answer, and one mail is queued', async (path) => {
    const recipient = freshRecipient();
    const key = freshKey();
    const first = await cloud.api('POST', path, { body: sendBody(cloud, { recipient_email: recipient }), headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    const again = await cloud.api('POST', path, { body: sendBody(cloud, { recipient_email: recipient }), headers: { 'idempotency-key': key } });
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body.email_id).toBe(first.body.email_id);
    expect(await activityCount(recipient)).toBe(1);
  });

  test('without the header they work as usual', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud) });
    expect(res.status).toBe(200);
  });
});

describe('Idempotency-Key length (1 to 256 characters)', () => {
  test.each([
    ['empty', ''],
    ['257 characters', 'k'.repeat(257)],
  ])('%s: 400, nothing is sent', async (_name, key) => {
    const recipient = freshRecipient();
    const res = await send(key, body({ recipient }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Idempotency-Key must be 1 to 256 characters' });
    expect(await activityCount(recipient)).toBe(0);
  });

  test('256 characters are accepted', async () => {
    const res = await send(`${freshKey()}-`.padEnd(256, 'k'), body());
    expect(res.status).toBe(200);
  });
});

describe('POST /send-email with Idempotency-Key (parts 4.3 and 4.5)', () => {
  test('a repeat returns the cached answer with Idempotency-Replayed: true, and one mail exists', async () => {
    const key = freshKey();
    const recipient = freshRecipient();
    const first = await send(key, body({ recipient }));
    expect(first.status).toBe(200);
    expect(first.body.email_id).toEqual(expect.any(String));
    expect(replayed(first)).toBeNull();
    const again = await send(key, body({ recipient }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await activityCount(recipient)).toBe(1);
  });

  test('a 4xx is cached and replayed too', async () => {
    const key = freshKey();
    const first = await send(key, body({ sender: undefined }));
    expect(first.status).toBe(400);
    expect(first.body.error).toBe('Missing required fields: sender');
    const again = await send(key, body({ sender: undefined }));
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
  });

  test('the same key with a different body: 422 IDEMPOTENCY_KEY_REUSED, nothing sent', async () => {
    const key = freshKey();
    await send(key, body());
    const recipient = freshRecipient();
    const res = await send(key, body({ recipient }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'Idempotency-Key was already used with a different request', code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await activityCount(recipient)).toBe(0);
  });

  test('the same key in another project is independent', async () => {
    const created = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Idempotency ${freshKey()}` } });
    expect(created.status).toBe(201);
    const otherKey = created.body.api_key as string;
    const key = freshKey();
    const mine = await send(key, body());
    const theirs = await send(key, body(), otherKey);
    expect(theirs.status).toBe(200);
    expect(replayed(theirs)).toBeNull();
    expect(theirs.body).not.toEqual(mine.body);
    // Their own answer is what they get back.
    const theirsAgain = await send(key, body(), otherKey);
    expect(replayed(theirsAgain)).toBe('true');
    expect(theirsAgain.body).toEqual(theirs.body);
  });

  test('10 concurrent requests with one key: one runs, the others get 409 or the replay; one mail goes out', async () => {
    const key = freshKey();
    const recipient = freshRecipient();
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(key, body({ recipient }))));
    const ran = answers.filter((a) => a.status === 200 && replayed(a) === null);
    expect(ran).toHaveLength(1);
    for (const other of answers.filter((a) => a !== ran[0])) {
      if (other.status === 409) expect(other.body).toEqual({ error: 'A request with this Idempotency-Key is still in progress; retry shortly', code: 'IDEMPOTENCY_KEY_IN_PROGRESS' });
      else expect({ status: other.status, body: other.body, replayed: replayed(other) }).toEqual({ status: 200, body: ran[0].body, replayed: 'true' });
    }
    await cloud.waitForActivity(ran[0].body.email_id as string, cloud.seed.live_key, (a) => a.current_status === 'delivered');
    expect((await cloud.outbox()).filter((m) => m.destination.to.includes(recipient))).toHaveLength(1);
    expect(await activityCount(recipient)).toBe(1);
  });

  test('a 5xx is not cached: the retry runs again', async () => {
    const real = services().queue;
    const failing: Queue = { ...real, send: async () => Promise.reject(new Error('SQS unavailable')), sendBatch: async () => Promise.reject(new Error('SQS unavailable')) };
    const key = freshKey();
    const recipient = freshRecipient();
    overrideServices({ queue: failing });
    let first: ApiAnswer;
    try {
      first = await send(key, body({ recipient }));
    } finally {
      overrideServices({ queue: real });
    }
    expect(first.status).toBeGreaterThanOrEqual(500);
    expect(await storedRecord(key)).toBeUndefined();
    const retry = await send(key, body({ recipient }));
    expect(retry.status).toBe(200);
    expect(replayed(retry)).toBeNull();
  });

  test('a dry run is neither cached nor stored', async () => {
    const key = freshKey();
    const first = await send(key, body({ dry_run: true }));
    expect(first.status).toBe(200);
    expect(first.body.dry_run).toBe(true);
    const again = await send(key, body({ dry_run: true }));
    expect(replayed(again)).toBeNull();
    expect(await storedRecord(key)).toBeUndefined();
  });

  test('the record lives 24 hours: ttl in epoch seconds, the answer stored', async () => {
    const key = freshKey();
    const before = Math.floor(Date.now() / 1000);
    const res = await send(key, body());
    const record = await storedRecord(key);
    expect(record).toMatchObject({ status: 'completed', sk: 'IDEMP' });
    expect(record?.ttl).toBeGreaterThanOrEqual(before + 86_400);
    expect(record?.ttl).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 86_400);
    expect(JSON.parse(JSON.parse(record?.response as string).body as string)).toEqual(res.body);
  });

  test('after 24 hours the key is free again, even before DynamoDB deletes the record', async () => {
    const key = freshKey();
    await send(key, body());
    const realClock = services().clock;
    overrideServices({ clock: { now: () => new Date(Date.now() + 86_400_000 + 5_000) } });
    let later: ApiAnswer;
    try {
      later = await send(key, body({ subject: 'A day later' }));
    } finally {
      overrideServices({ clock: realClock });
    }
    expect(later.status).toBe(200);
    expect(replayed(later)).toBeNull();
  });
});

describe('a key held by another request (the conditional claim)', () => {
  /** Holds `key` for `payload` as a request that started at `startedAt` would. */
  async function hold(key: string, payload: unknown, startedAt: Date) {
    const fingerprint = requestFingerprint({ routeKey: 'POST /send-email', mode: 'live', body: payload });
    const claim = { projectId: cloud.seed.project_id, keyHash: hashIdempotencyKey(key), token: randomUUID() };
    expect(await claimIdempotencyKey(services().db, { claim, fingerprint, now: startedAt })).toEqual({ claimed: true });
  }

  test('while its lease runs: 409', async () => {
    const key = freshKey();
    await hold(key, body(), new Date());
    const res = await send(key, body());
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
  });

  test('after its lease ran out (the holder died): the same request takes over and runs', async () => {
    const key = freshKey();
    await hold(key, body(), new Date(Date.now() - 120_000));
    const res = await send(key, body());
    expect(res.status).toBe(200);
    expect(replayed(res)).toBeNull();
    expect((await storedRecord(key))?.status).toBe('completed');
  });

  test('after its lease ran out, another request still gets 422', async () => {
    const key = freshKey();
    await hold(key, body(), new Date(Date.now() - 120_000));
    const res = await send(key, body({ subject: 'Something else' }));
    expect(res.status).toBe(422);
  });
});
