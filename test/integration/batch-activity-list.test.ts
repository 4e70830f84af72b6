import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { authenticateProject } from '../../shared/platform/auth/authenticate';
import { acceptBatch } from '../../shared/mail-pipeline/batches/accept-batch';
import { parseBatchRequest } from '../../shared/mail-pipeline/batches/batch-request';
import { getBatch } from '../../shared/mail-pipeline/batches/batch-repository';
import { services } from '../../composition/services';
import { activityKey, batchKey } from '../../shared/platform/store/keys';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * A scheduled batch's recipients in `GET /v1/activity` (4.11): every filter finds each recipient
 * the API accepted from the moment it answers, `queued` until the batch goes out, `cancelled` as
 * soon as `DELETE /v1/send-batch/:id` (4.4, part 3) has answered.
 */

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tag = () => randomUUID().slice(0, 8);
const TWO_DAYS = 2 * 86_400_000;

const batchBody = (recipients: unknown[], over: Record<string, unknown> = {}) => ({
  sender: cloud.seed.sender_email,
  subject: 'Hello {{name}}',
  html: '<p>Hi {{name}}</p>',
  recipients,
  ...over,
});

type Listed = { id: string; current_status: string; recipient_primary: string; created_at: string; batch_id?: string };

async function list(query: Record<string, string>) {
  const res = await cloud.api('GET', `/v1/activity?${new URLSearchParams(query)}`);
  expect(res.status).toBe(200);
  return { data: res.body.data as Listed[], total: (res.body.pagination as { total: number }).total };
}

/** A scheduled batch of three; its answer's recipients, and the time window around the call. */
async function scheduleThree(t: string, at = new Date(Date.now() + TWO_DAYS).toISOString()) {
  const since = new Date(Date.now() - 1000).toISOString();
  const emails = [`one-${t}@example.com`, `two-${t}@example.com`, `three-${t}@example.com`];
  const res = await cloud.api('POST', '/v1/send-batch', { body: batchBody(emails.map((email, i) => ({ email, name: `N${i}`, metadata: { n: i } })), { scheduled_at: at }) });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('scheduled');
  const until = new Date(Date.now() + 1000).toISOString();
  return { batchId: res.body.batch_id as string, recipients: res.body.recipients as { email: string; activity_id: string }[], since, until };
}

describe('GET /v1/activity: a scheduled batch before it goes out', () => {
  it('finds every recipient queued by email, status, since/until and in the pages of the project list', async () => {
    const t = tag();
    const { batchId, recipients, since, until } = await scheduleThree(t);

    for (const r of recipients) {
      const byEmail = await list({ email: r.email });
      expect(byEmail.total).toBe(1);
      expect(byEmail.data[0]).toMatchObject({ id: r.activity_id, current_status: 'queued', recipient_primary: r.email, batch_id: batchId, metadata: expect.anything() });
    }
    const ids = recipients.map((r) => r.activity_id).sort();
    const inWindow = await list({ since, until, per_page: '200' });
    expect(inWindow.data.filter((a) => a.batch_id === batchId).map((a) => a.id).sort()).toEqual(ids);
    const queued = await list({ status: 'queued', since, until, per_page: '200' });
    expect(queued.data.filter((a) => a.batch_id === batchId).map((a) => a.id).sort()).toEqual(ids);
    // Pages of one: the three records come one to a page, each once, and the total counts them.
    const pages = await Promise.all([1, 2, 3].map((page) => list({ since, until, per_page: '1', page: String(page) })));
    expect(pages[0].total).toBe(inWindow.total);
    const paged = pages.flatMap((p) => p.data).filter((a) => a.batch_id === batchId);
    expect(new Set(paged.map((a) => a.id)).size).toBe(paged.length);
    // Nothing of it outside its window, nor under a campaign.
    expect((await list({ email: recipients[0].email, until: new Date(Date.parse(since) - 1).toISOString() })).total).toBe(0);
    expect((await list({ email: recipients[0].email, campaign_id: randomUUID() })).total).toBe(0);
  }, 60_000);

  it('shows every recipient cancelled as soon as DELETE answers, under each filter', async () => {
    const t = tag();
    const { batchId, recipients, since, until } = await scheduleThree(t);
    const del = await cloud.api('DELETE', `/v1/send-batch/${batchId}`);
    expect(del.body).toMatchObject({ cancelled: 3, activities_updated: 3 });

    for (const r of recipients) {
      const byEmail = await list({ email: r.email });
      expect(byEmail.total).toBe(1);
      expect(byEmail.data[0]).toMatchObject({ id: r.activity_id, current_status: 'cancelled' });
    }
    const cancelled = await list({ status: 'cancelled', since, until, per_page: '200' });
    expect(cancelled.data.filter((a) => a.batch_id === batchId)).toHaveLength(3);
    const queued = await list({ status: 'queued', since, until, per_page: '200' });
    expect(queued.data.filter((a) => a.batch_id === batchId)).toHaveLength(0);
    // The background fan-out the cancel also queued changes nothing of it.
    await cloud.settled();
    expect((await list({ status: 'cancelled', since, until, per_page: '200' })).data.filter((a) => a.batch_id === batchId)).toHaveLength(3);
    expect((await cloud.api('GET', `/v1/activity/${recipients[1].activity_id}`)).body.data).toMatchObject({ current_status: 'cancelled', metadata: { n: 1 } });
  }, 60_000);
});

describe('GET /v1/activity: a scheduled batch when it goes out', () => {
  it('sends each recipient once, on the record written at accept; one suppressed since becomes suppressed', async () => {
    const t = tag();
    const { batchId, recipients } = await scheduleThree(t, new Date(Date.now() + 3000).toISOString());
    const createdAt = (await list({ email: recipients[0].email })).data[0].created_at;
    expect((await cloud.api('POST', '/v1/suppressions', { body: { email: recipients[2].email } })).status).toBe(201);

    await cloud.waitForActivity(recipients[0].activity_id, cloud.seed.live_key, (a) => a.current_status === 'sent' || a.current_status === 'delivered');
    await cloud.waitForActivity(recipients[1].activity_id, cloud.seed.live_key, (a) => a.current_status === 'sent' || a.current_status === 'delivered');
    await cloud.waitForActivity(recipients[2].activity_id, cloud.seed.live_key, (a) => a.current_status === 'suppressed');
    const first = await list({ email: recipients[0].email });
    expect(first.total).toBe(1);
    expect(first.data[0].created_at).toBe(createdAt);
    const suppressed = await list({ status: 'suppressed', email: recipients[2].email });
    expect(suppressed.data.map((a) => a.id)).toEqual([recipients[2].activity_id]);
    const mails = (await cloud.outbox()).filter((m) => m.destination.to.some((to) => to.includes(t)));
    expect(mails.map((m) => m.destination.to[0]).sort()).toEqual([recipients[0].email, recipients[1].email].sort());
    expect(batchId).toBeDefined();
  }, 60_000);

  it('sends each recipient once when the accept stopped before all its records were written (the fan-out writes the rest)', async () => {
    const t = tag();
    const { batchId, recipients } = await scheduleThree(t, new Date(Date.now() + 3000).toISOString());
    // As if the API had stopped after two records: no `records_written`, and the third record missing.
    const { db } = services();
    await db.doc.send(new UpdateCommand({ TableName: db.tableName, Key: batchKey(batchId), UpdateExpression: 'REMOVE records_written' }));
    await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: activityKey(recipients[2].activity_id) }));

    for (const r of recipients) await cloud.waitForActivity(r.activity_id, cloud.seed.live_key, (a) => a.current_status === 'sent' || a.current_status === 'delivered');
    await cloud.settled();
    for (const r of recipients) expect((await list({ email: r.email })).total).toBe(1);
    const mails = (await cloud.outbox()).filter((m) => m.destination.to.some((to) => to.includes(t)));
    expect(mails.map((m) => m.destination.to[0]).sort()).toEqual(recipients.map((r) => r.email).sort());
  }, 60_000);

  it('answers 502 and cancels the batch when its records cannot all be written at accept; what was written ends cancelled', async () => {
    const t = tag();
    const deps = services();
    // A table that takes the first BatchWrite of the records and refuses the second.
    let writes = 0;
    const failing = {
      ...deps,
      db: { ...deps.db, doc: { send: (command: { constructor: { name: string } }) => (command.constructor.name === 'BatchWriteCommand' && ++writes > 1 ? Promise.reject(new Error('throttled')) : deps.db.doc.send(command as never)) } as never },
    };
    const caller = await authenticateProject(deps.db, deps.clock, `Bearer ${cloud.seed.live_key}`);
    const emails = Array.from({ length: 60 }, (_, i) => `w${i}-${t}@example.com`);
    const input = parseBatchRequest(batchBody(emails, { scheduled_at: new Date(Date.now() + TWO_DAYS).toISOString() }));
    await expect(acceptBatch(failing, caller, input)).rejects.toMatchObject({ status: 502 });

    const written = await list({ email: emails[0] });
    expect(written.total).toBe(1);
    const batchId = written.data[0].batch_id!;
    expect(await getBatch(deps.db, batchId, true)).toMatchObject({ status: 'cancelled' });
    // The fan-out the withdrawal queued turns every record cancelled, the written and the missing.
    for (const email of [emails[0], emails[59]]) {
      for (let i = 0; i < 50 && (await list({ email, status: 'cancelled' })).total === 0; i++) await sleep(200);
      expect((await list({ email })).data.map((a) => a.current_status)).toEqual(['cancelled']);
    }
  }, 60_000);
});
