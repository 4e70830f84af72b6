import { randomBytes, randomUUID } from 'node:crypto';
import type { Batch, BatchRecipient } from '../../shared/mail-pipeline/batches/batch';
import { expandChunk as expandChunkCode, type WaveCounters } from '../../shared/mail-pipeline/batches/batch-fanout';
import { batchActivityId, newBatchId } from '../../shared/mail-pipeline/batches/batch-ids';
import { getBatch, putBatch, putBatchBlobs } from '../../shared/mail-pipeline/batches/batch-repository';
import { services } from '../../composition/services';
import { CLOUD_TIMEOUT_MS, startTestCloud, storedActivity, type TestCloud } from './support/test-cloud';
import { asFunctionCode } from '../../local/iam/function-roles';

// The worker's own code, called in place of its handler: run as its function's role.
const expandChunk = asFunctionCode('batch-fanout', expandChunkCode);

/**
 * A batch recipient's `data` and `metadata` (4.3): bounded when the request is parsed, as a lead's
 * data is (400 naming the recipient's index); and a recipient the fan-out still cannot write fails
 * alone (`failed`, with the reason), never its chunk of up to 500. Any body nested thousands deep
 * is a 400, not a stack overflow.
 */

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tag = () => randomUUID().slice(0, 8);

/** `{a: {a: ... 1}}`, `levels` objects deep. */
const nested = (levels: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
};
/** The same built as JSON text (a value 20,000 deep cannot go through JSON.stringify). */
const nestedJson = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const batchBody = (recipients: unknown[]) => ({ sender: cloud.seed.sender_email, subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>', recipients });

describe('POST /v1/send-batch: a recipient\'s data and metadata', () => {
  it.each([
    ['metadata nested 40 levels', { metadata: nested(40) }, 'recipients[1].metadata is nested more than 16 levels deep'],
    ['420 KB of metadata', { metadata: { notes: 'x'.repeat(420 * 1024) } }, 'recipients[1].metadata is larger than 32 KB'],
    ['data nested 20 levels', { data: nested(20) }, 'recipients[1].data is nested more than 16 levels deep'],
    ['40 KB of data', { data: { notes: 'x'.repeat(40 * 1024) } }, 'recipients[1].data is larger than 32 KB'],
  ])('refuses %s with a 400 naming the recipient', async (_name, fields, message) => {
    const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody(['ok@example.com', { email: 'bad@example.com', ...fields }]) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(message);
  });

  it('accepts data and metadata within the bounds', async () => {
    const res = await cloud.api('POST', '/v1/send-batch', {
      body: { ...batchBody([{ email: `fine-${tag()}@example.com`, data: nested(16), metadata: { notes: 'x'.repeat(30 * 1024) } }]), dry_run: true },
    });
    expect(res.status).toBe(200);
  });
});

describe('a request body nested 20,000 levels deep', () => {
  const deepBatch = () => `{"sender":"${cloud.seed.sender_email}","subject":"s","html":"<p>h</p>","recipients":[{"email":"a@example.com","data":${nestedJson(20_000)}}]}`;

  it.each([
    ['POST /v1/send-batch', '/v1/send-batch', {}],
    ['POST /v1/send-batch with an Idempotency-Key', '/v1/send-batch', { 'idempotency-key': randomUUID() }],
    ['POST /v1/leads', '/v1/leads', {}],
  ])('answers 400 on %s', async (_name, path, headers) => {
    const rawBody = path === '/v1/leads' ? `{"email":"deep@example.com","data":${nestedJson(20_000)}}` : deepBatch();
    const res = await cloud.api('POST', path, { rawBody, headers: { 'content-type': 'application/json', ...headers } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Request body is nested more than 64 levels deep');
  });
});

/** A batch written as the API writes one, without the API's checks (a batch accepted before them, or a campaign's wave). */
async function writeBatch(recipients: BatchRecipient[], over: Partial<Batch> = {}, html = '<p>Hi {{name}}</p>'): Promise<Batch> {
  const now = new Date().toISOString();
  const batch: Batch = {
    id: newBatchId(),
    project_id: cloud.seed.project_id,
    mode: 'live',
    status: 'sending',
    created_at: now,
    updated_at: now,
    recipient_count: recipients.length,
    duplicates_removed: 0,
    chunk_size: 500,
    chunk_count: 1,
    subject: 'Hi {{name}}',
    sender_email: cloud.seed.sender_email,
    email_type: 'marketing',
    ...over,
  };
  await putBatchBlobs(services().blobs, batch, { sender: cloud.seed.sender_email, subject: 'Hi {{name}}', html, emailType: 'marketing', customHeaders: {} }, recipients);
  await putBatch(services().db, batch, Math.floor(Date.now() / 1000) + 86_400);
  return batch;
}

describe('the fan-out: one recipient it cannot write', () => {
  it('fails that recipient alone, with the reason in its activity; the others of the chunk are sent', async () => {
    const t = tag();
    const good = [0, 1, 2].map((i) => ({ email: `good${i}-${t}@example.com`, name: `G${i}`, metadata: { i } }));
    const deep = { email: `deep-${t}@example.com`, metadata: nested(40) };
    const huge = { email: `huge-${t}@example.com`, data: { blob: 'x'.repeat(300 * 1024) } };
    const batch = await writeBatch([good[0], deep, good[1], huge, good[2]]);

    expect(await expandChunk(services(), { v: 1, batch_id: batch.id, project_id: batch.project_id, chunk: 0 })).toBe('expanded');

    const deepRecord = await storedActivity(batchActivityId(batch.id, 1));
    expect(deepRecord).toMatchObject({ current_status: 'failed', recipient_primary: deep.email, failure: { error_code: 'send_failed', permanent: true } });
    expect(deepRecord?.failure?.error_message).toBe("Not sent: the recipient's metadata is nested more than 16 levels deep");
    expect(deepRecord?.metadata).toBeUndefined();
    const hugeRecord = await storedActivity(batchActivityId(batch.id, 3));
    expect(hugeRecord).toMatchObject({ current_status: 'failed', failure: { error_message: "Not sent: the recipient's data is larger than 192 KB" } });
    // The failed ones are found by the list's status filter.
    const failed = await cloud.api('GET', `/v1/activity?status=failed&email=${encodeURIComponent(deep.email)}`);
    expect((failed.body.data as { id: string }[]).map((a) => a.id)).toEqual([batchActivityId(batch.id, 1)]);

    for (let i = 0; i < 100 && (await mailsTo(t)).length < 3; i++) await sleep(200);
    expect((await mailsTo(t)).map((m) => m.destination.to[0]).sort()).toEqual(good.map((g) => g.email).sort());
    expect(await getBatch(services().db, batch.id, true)).toMatchObject({ status: 'sent', queued_count: 3, failed_count: 2 });
  }, 60_000);

  it('in a campaign wave, fails the lead whose data cannot be queued alone and counts it failed', async () => {
    const t = tag();
    const leads = [0, 1, 2].map((i) => ({ email: `lead${i}-${t}@example.com`, data: { email: `lead${i}-${t}@example.com`, first_name: `L${i}` } }));
    const heavy = { email: `heavy-${t}@example.com`, data: { email: `heavy-${t}@example.com`, notes: 'x'.repeat(300 * 1024) } };
    const campaignId = randomUUID();
    const batch = await writeBatch([leads[0], heavy, leads[1], leads[2]], { campaign_id: campaignId });
    const counted: Record<string, number> = {};
    const counters: WaveCounters = { add: (_c, field, n) => void (counted[field] = (counted[field] ?? 0) + n) };

    expect(await expandChunk(services(), { v: 1, batch_id: batch.id, project_id: batch.project_id, chunk: 0 }, counters)).toBe('expanded');

    expect(await storedActivity(batchActivityId(batch.id, 1))).toMatchObject({ current_status: 'failed', campaign_id: campaignId, failure: { error_code: 'send_failed' } });
    for (const i of [0, 2, 3]) expect((await storedActivity(batchActivityId(batch.id, i)))?.current_status).not.toBe('failed');
    expect(counted).toEqual({ failed: 1 });
    expect(await getBatch(services().db, batch.id, true)).toMatchObject({ queued_count: 3, failed_count: 1 });
  }, 60_000);
});

describe('the batch-send worker: one mail it cannot store', () => {
  it('fails the recipient whose rendered mail is too large to store, with the reason; the others are sent', async () => {
    const t = tag();
    // 150 KB that does not compress, written five times apart: well over DynamoDB's 400 KB once gzipped.
    const blob = randomBytes(112 * 1024).toString('base64');
    const good = [0, 1].map((i) => ({ email: `fit${i}-${t}@example.com`, name: `F${i}` }));
    const big = { email: `big-${t}@example.com`, data: { blob } };
    const batch = await writeBatch([good[0], big, good[1]], {}, '<p>Hi {{name}}</p>' + '<p>{{blob}}</p>'.repeat(5));

    expect(await expandChunk(services(), { v: 1, batch_id: batch.id, project_id: batch.project_id, chunk: 0 })).toBe('expanded');

    for (let i = 0; i < 100 && (await mailsTo(t)).length < 2; i++) await sleep(200);
    expect((await mailsTo(t)).map((m) => m.destination.to[0]).sort()).toEqual(good.map((g) => g.email).sort());
    const record = await cloud.waitForActivity(batchActivityId(batch.id, 1), cloud.seed.live_key, (a) => a.current_status !== 'queued');
    expect(record).toMatchObject({ current_status: 'failed', error_code: 'template_error', error_message: 'The rendered mail is too large to store and send (more than 400 KB compressed)' });
  }, 60_000);
});

async function mailsTo(pattern: string) {
  return (await cloud.outbox()).filter((m) => m.destination.to.some((to) => to.includes(pattern)));
}
