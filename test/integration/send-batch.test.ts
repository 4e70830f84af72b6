import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { expandChunk as expandChunkCode } from '../../shared/mail-pipeline/batches/batch-fanout';
import { services } from '../../composition/services';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';
import { asFunctionCode } from '../../local/iam/function-roles';

// The worker's own code, called in place of its handler: run as its function's role.
const expandChunk = asFunctionCode('batch-fanout', expandChunkCode);

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Addresses of their own per test, to find that test's mails in the shared outbox. */
const tag = () => randomUUID().slice(0, 8);

const batchBody = (recipients: unknown[], over: Record<string, unknown> = {}) => ({
  sender: cloud.seed.sender_email,
  subject: 'Hello {{name}}',
  html: '<p>Hi {{name}}, your code is {{code}} ({{brand}})</p>',
  data: { brand: 'Acme', code: 'none' },
  recipients,
  ...over,
});

async function mailsTo(pattern: string) {
  return (await cloud.outbox()).filter((m) => m.destination.to.some((t) => t.includes(pattern)));
}

async function waitForMails(pattern: string, count: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(pattern);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await sleep(200);
  }
}

/** Every item of the table and every raw mail of the outbox, to show that a call wrote nothing. */
async function snapshot() {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await services().db.doc.send(new ScanCommand({ TableName: services().db.tableName, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return { items: items.map((i) => `${i.pk}|${i.sk}|${i.version ?? ''}`).sort(), outbox: fs.readdirSync(cloud.outboxDir).sort() };
}

describe('POST /v1/send-batch: validation', () => {
  it('accepts 10,000 recipients and refuses 10,001', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `limit-${i}@example.com`);
    const ok = await cloud.api('POST', '/v1/send-batch', { body: batchBody(many(10_000), { dry_run: true }) });
    expect(ok.status).toBe(200);
    expect(ok.body.counts).toMatchObject({ valid: 10_000 });
    const tooMany = await cloud.api('POST', '/v1/send-batch', { body: batchBody(many(10_001), { dry_run: true }) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('Too many recipients (10001). Maximum is 10,000 per call.');
  });

  it('names the index of an invalid recipient', async () => {
    const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody(['a@example.com', { email: 'b@example.com' }, { email: 'not-an-address' }]) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('recipients[2].email is invalid');
  });
});

describe('POST /v1/send-batch: sending', () => {
  it('personalises each mail, sends a repeated address once and answers an activity id per recipient at once', async () => {
    const t = tag();
    const res = await cloud.api('POST', '/v1/send-batch', {
      body: batchBody([
        { email: `ann-${t}@example.com`, name: 'Ann', data: { code: 'A1' }, metadata: { customer: 1 } },
        `bob-${t}@example.com`,
        { email: `ANN-${t}@example.com`, name: 'Ann again' },
      ]),
    });
    expect(res.status).toBe(200);
    expect(res.body.counts).toEqual({ requested: 3, accepted: 2, duplicates_removed: 1 });
    const recipients = res.body.recipients as { email: string; activity_id: string }[];
    expect(recipients.map((r) => r.email)).toEqual([`ann-${t}@example.com`, `bob-${t}@example.com`]);
    // Straight away, whether or not the fan-out has written the record yet.
    const first = await cloud.api('GET', `/v1/activity/${recipients[0].activity_id}`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ recipient_primary: `ann-${t}@example.com`, batch_id: res.body.batch_id });

    const mails = await waitForMails(t, 2);
    expect(mails).toHaveLength(2);
    const ann = mails.find((m) => m.destination.to[0].includes('ann-'))!;
    expect(ann.subject).toBe('Hello Ann');
    expect(ann.body.html).toContain('your code is A1 (Acme)');
    const bob = mails.find((m) => m.destination.to[0].includes('bob-'))!;
    expect(bob.body.html).toContain('your code is none (Acme)');
    const record = await cloud.waitForActivity(recipients[0].activity_id, cloud.seed.live_key, (a) => a.current_status !== 'queued');
    expect(record).toMatchObject({ metadata: { customer: 1 }, batch_id: res.body.batch_id });
  }, 60_000);

  it('marks a suppressed recipient suppressed and sends the others', async () => {
    const t = tag();
    const blocked = `blocked-${t}@example.com`;
    expect((await cloud.api('POST', '/v1/suppressions', { body: { email: blocked } })).status).toBe(201);
    const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody([blocked, `open-${t}@example.com`]) });
    const [first] = res.body.recipients as { activity_id: string }[];
    expect((await cloud.waitForActivity(first.activity_id, cloud.seed.live_key, (a) => a.current_status === 'suppressed')).current_status).toBe('suppressed');
    const mails = await waitForMails(t, 1);
    expect(mails.map((m) => m.destination.to[0])).toEqual([`open-${t}@example.com`]);
  }, 60_000);

  it('a dry run writes nothing to the table or the outbox', async () => {
    const t = tag();
    // Earlier tests' mails settle first (their delivery events bump their records' versions).
    await cloud.settled();
    const before = await snapshot();
    const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody([{ email: `dry-${t}@example.com`, name: 'Dee' }, `dry2-${t}@example.com`], { dry_run: true }) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dry_run: true, counts: { valid: 2, duplicates_removed: 0, suppressed: 0 } });
    expect((res.body.previews as { subject: string }[])[0].subject).toBe('Hello Dee');
    await cloud.settled();
    expect(await snapshot()).toEqual(before);
  }, 30_000);

  it('replays an Idempotency-Key: one batch, also for concurrent requests', async () => {
    const t = tag();
    const key = `batch-${t}`;
    const body = batchBody([`idem-${t}@example.com`]);
    const answers = await Promise.all([1, 2, 3].map(() => cloud.api('POST', '/v1/send-batch', { body, headers: { 'idempotency-key': key } })));
    const ids = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.batch_id));
    expect(ids.size).toBe(1);
    const again = await cloud.api('POST', '/v1/send-batch', { body, headers: { 'idempotency-key': key } });
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body.batch_id).toBe([...ids][0]);
    await cloud.settled();
    expect(await mailsTo(`idem-${t}`)).toHaveLength(1);
  }, 60_000);

  it('a redelivered chunk sends nobody twice', async () => {
    const t = tag();
    const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody([`re1-${t}@example.com`, `re2-${t}@example.com`]) });
    await waitForMails(t, 2);
    const batchId = res.body.batch_id as string;
    expect(await expandChunk(services(), { v: 1, batch_id: batchId, project_id: cloud.seed.project_id, chunk: 0 })).toBe('already-done');
    await cloud.settled();
    expect(await mailsTo(t)).toHaveLength(2);
  }, 60_000);
});

describe('scheduled batches (4.4)', () => {
  it('cancels a scheduled batch: its activities become cancelled and nothing is sent', async () => {
    const t = tag();
    const at = new Date(Date.now() + 4000).toISOString();
    const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody([`can-${t}@example.com`], { scheduled_at: at }) });
    expect(res.body).toMatchObject({ status: 'scheduled', scheduled_for: at });
    const batchId = res.body.batch_id as string;
    expect((await cloud.api('GET', `/v1/send-batch/${batchId}`)).body).toMatchObject({ status: 'scheduled', scheduled_for: at, counts: { queued: 1 } });
    const del = await cloud.api('DELETE', `/v1/send-batch/${batchId}`);
    expect(del.body).toMatchObject({ cancelled: 1, activities_updated: 1 });
    const [r] = res.body.recipients as { activity_id: string }[];
    expect((await cloud.api('GET', `/v1/activity/${r.activity_id}`)).body.data).toMatchObject({ current_status: 'cancelled' });
    expect((await cloud.api('DELETE', `/v1/send-batch/${batchId}`)).status).toBe(409);
    // Its fire message, delayed to its time, comes and finds it cancelled.
    await cloud.settled();
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
    expect(await mailsTo(t)).toHaveLength(0);
  }, 30_000);

  it('reschedules a batch, which leaves within 5 s of its new time; then answers 409', async () => {
    const t = tag();
    const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody([`res-${t}@example.com`], { scheduled_at: new Date(Date.now() + 3600_000).toISOString() }) });
    const batchId = res.body.batch_id as string;
    const at = new Date(Date.now() + 3000);
    const patch = await cloud.api('PATCH', `/v1/send-batch/${batchId}`, { body: { scheduled_at: at.toISOString() } });
    expect(patch.body).toMatchObject({ rescheduled: 1, scheduled_for: at.toISOString() });
    const [mail] = await waitForMails(t, 1, 15_000);
    expect(mail).toBeDefined();
    const arrived = Date.now();
    expect(arrived - at.getTime()).toBeLessThan(5000);
    expect((await cloud.api('PATCH', `/v1/send-batch/${batchId}`, { body: { scheduled_at: 'in 2 hours' } })).status).toBe(409);
  }, 30_000);
});
