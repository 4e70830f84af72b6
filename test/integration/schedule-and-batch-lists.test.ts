import { randomUUID } from 'node:crypto';
import type { Activity } from '../../shared/mail-pipeline/activity/activity';
import { putActivity } from '../../shared/mail-pipeline/activity/activity-repository';
import type { ProjectCaller } from '../../shared/platform/auth/authenticate';
import type { Batch, BatchStatus } from '../../shared/mail-pipeline/batches/batch';
import { putBatch } from '../../shared/mail-pipeline/batches/batch-repository';
import { services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import type { ScheduledSendContent } from '../../shared/mail-pipeline/mail/advanced-send-types';
import { getProject } from '../../shared/platform/projects/project-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import { claimScheduledSend, markScheduledSendFailed } from '../../shared/mail-pipeline/scheduling/scheduled-send-repository';
import { createScheduledSend } from '../../shared/mail-pipeline/scheduling/scheduled-send-service';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const DOMAIN = 'lists.example.org';
const SENDER = `news@${DOMAIN}`;

/** A project of its own (so its lists hold only what the test put there), able to send from DOMAIN. */
async function freshProject() {
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: `Lists ${randomUUID().slice(0, 8)}` });
  const now = new Date().toISOString();
  await putDomain(db, { project_id: created.project.id, domain: DOMAIN, identity_id: 'id', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
  const project = (await getProject(db, created.project.id))!;
  const caller = (mode: 'live' | 'test'): ProjectCaller => ({ kind: 'project', mode, project });
  return { live: created.liveKey, test: created.testKey, caller };
}

const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000);

const content = (to: string): ScheduledSendContent => ({
  recipient: to,
  sender: SENDER,
  subject: `Hello ${to}`,
  html: '<p>Hello later</p>',
  emailType: 'transactional',
  customHeaders: {},
  references: [],
});

type Row = Record<string, unknown>;
const list = async (key: string, path: string) => {
  const res = await cloud.api('GET', path, { key });
  return { status: res.status, body: res.body, data: (res.body.data ?? []) as Row[], pagination: res.body.pagination as Row };
};

describe('GET /v1/scheduled-sends', () => {
  let keys: Awaited<ReturnType<typeof freshProject>>;
  /** The project's sends by name: pending ones at 1 to 5 hours ahead (created out of order), and one of each other state. */
  const ids: Record<string, string> = {};
  const at: Record<string, string> = {};

  const schedule = async (name: string, hours: number, mode: 'live' | 'test' = 'live') => {
    const send = await createScheduledSend(services(), keys.caller(mode), { content: content(`${name}@example.com`), scheduledFor: hoursAhead(hours), timezone: 'UTC' });
    ids[name] = send.id;
    at[name] = send.scheduled_for;
    return send;
  };

  beforeAll(async () => {
    keys = await freshProject();
    const { db } = services();
    for (const [name, hours] of [['p3', 3], ['p1', 1], ['p5', 5], ['p2', 2], ['p4', 4]] as const) await schedule(name, hours);
    // Cancelled through the API: it leaves the pending list.
    await schedule('cancelled', 6);
    expect((await cloud.api('DELETE', `/v1/scheduled-sends/${ids.cancelled}`, { key: keys.live })).status).toBe(200);
    // Fired: claimed by the worker, then its mail delivered (sent) or its firing failed.
    const now = new Date().toISOString();
    const sent = await schedule('sent', 7);
    expect(await claimScheduledSend(db, { id: sent.id, scheduledFor: sent.scheduled_for, claimedBy: 'test', now })).toBe(true);
    const activity: Activity = {
      id: sent.email_id,
      project_id: sent.project_id,
      created_at: now,
      updated_at: now,
      email_type: 'transactional',
      subject: sent.subject,
      sender_email: SENDER,
      recipient_primary: sent.recipient_email,
      recipient_count: 1,
      current_status: 'delivered',
      is_test: false,
    };
    await putActivity(db, activity, Math.floor(Date.now() / 1000) + 3600);
    const failed = await schedule('failed', 8);
    expect(await claimScheduledSend(db, { id: failed.id, scheduledFor: failed.scheduled_for, claimedBy: 'test', now })).toBe(true);
    expect(await markScheduledSendFailed(db, failed.id, 'Template deleted', now)).toBe(true);
    await schedule('test-mode', 2.5, 'test');
  });

  const names = (rows: Row[]) => rows.map((r) => Object.keys(ids).find((name) => ids[name] === r.id) ?? `unknown ${String(r.id)}`);

  test('lists the project\'s sends of the key\'s mode, latest scheduled_for first, each as GET /v1/scheduled-sends/{id} shows it', async () => {
    const res = await list(keys.live, '/v1/scheduled-sends');
    expect(res.status).toBe(200);
    expect(names(res.data)).toEqual(['failed', 'sent', 'cancelled', 'p5', 'p4', 'p3', 'p2', 'p1']);
    expect(res.pagination).toEqual({ page: 1, per_page: 50, total: 8, total_pages: 1, total_is_estimate: false, next_cursor: null });
    for (const row of res.data) expect(row).toEqual((await cloud.api('GET', `/v1/scheduled-sends/${String(row.id)}`, { key: keys.live })).body.data);
    expect(res.data.map((r) => r.status)).toEqual(['failed', 'sent', 'cancelled', 'pending', 'pending', 'pending', 'pending', 'pending']);
  });

  test('status=pending lists only pending sends, soonest first', async () => {
    const res = await list(keys.live, '/v1/scheduled-sends?status=pending');
    expect(names(res.data)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(res.pagination).toMatchObject({ total: 5, total_is_estimate: false, next_cursor: null });
  });

  test('status=sent, failed and cancelled each list their sends (a fired send\'s status comes from its mail)', async () => {
    expect(names((await list(keys.live, '/v1/scheduled-sends?status=sent')).data)).toEqual(['sent']);
    expect(names((await list(keys.live, '/v1/scheduled-sends?status=failed')).data)).toEqual(['failed']);
    expect(names((await list(keys.live, '/v1/scheduled-sends?status=cancelled')).data)).toEqual(['cancelled']);
    expect((await list(keys.live, '/v1/scheduled-sends?status=processing')).data).toEqual([]);
  });

  test('from and to bound scheduled_for, inclusive, with or without a status', async () => {
    const window = `from=${encodeURIComponent(at.p2)}&to=${encodeURIComponent(at.p4)}`;
    expect(names((await list(keys.live, `/v1/scheduled-sends?${window}`)).data)).toEqual(['p4', 'p3', 'p2']);
    expect(names((await list(keys.live, `/v1/scheduled-sends?status=pending&${window}`)).data)).toEqual(['p2', 'p3', 'p4']);
    expect(names((await list(keys.live, `/v1/scheduled-sends?status=cancelled&${window}`)).data)).toEqual([]);
    expect(names((await list(keys.live, `/v1/scheduled-sends?from=${encodeURIComponent(at.sent)}`)).data)).toEqual(['failed', 'sent']);
  });

  test('a moved send takes its new place in both orders', async () => {
    const moved = await cloud.api('PATCH', `/v1/scheduled-sends/${ids.p1}`, { key: keys.live, body: { scheduled_at: hoursAhead(4.5).toISOString() } });
    expect(moved.status).toBe(200);
    at.p1 = (moved.body.data as Row).scheduled_for as string;
    expect(names((await list(keys.live, '/v1/scheduled-sends?status=pending')).data)).toEqual(['p2', 'p3', 'p4', 'p1', 'p5']);
    expect(names((await list(keys.live, '/v1/scheduled-sends')).data).slice(3)).toEqual(['p5', 'p1', 'p4', 'p3', 'p2']);
  });

  test('pages by page and per_page, then by cursor from any page', async () => {
    const first = await list(keys.live, '/v1/scheduled-sends?status=pending&per_page=2');
    expect(names(first.data)).toEqual(['p2', 'p3']);
    expect(first.pagination).toMatchObject({ page: 1, per_page: 2, total: 5, total_pages: 3, total_is_estimate: false });
    const second = await list(keys.live, '/v1/scheduled-sends?status=pending&per_page=2&page=2');
    expect(names(second.data)).toEqual(['p4', 'p1']);
    const byCursor = await list(keys.live, `/v1/scheduled-sends?status=pending&per_page=2&cursor=${String(first.pagination.next_cursor)}`);
    expect(names(byCursor.data)).toEqual(['p4', 'p1']);
    const last = await list(keys.live, `/v1/scheduled-sends?status=pending&per_page=2&cursor=${String(byCursor.pagination.next_cursor)}`);
    expect(names(last.data)).toEqual(['p5']);
    expect(last.pagination.next_cursor).toBeNull();

    // A filter checked on the sends pages the same way.
    const history: string[] = [];
    let cursor: unknown;
    do {
      const page = await list(keys.live, `/v1/scheduled-sends?per_page=3${cursor ? `&cursor=${String(cursor)}` : ''}`);
      history.push(...names(page.data));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    expect(history).toEqual(['failed', 'sent', 'cancelled', 'p5', 'p1', 'p4', 'p3', 'p2']);
    const notPending = await list(keys.live, '/v1/scheduled-sends?status=sent&per_page=1');
    expect(names(notPending.data)).toEqual(['sent']);
  });

  test('a test key lists only test sends, a live key only live ones', async () => {
    expect(names((await list(keys.test, '/v1/scheduled-sends')).data)).toEqual(['test-mode']);
    expect(names((await list(keys.test, '/v1/scheduled-sends?status=pending')).data)).toEqual(['test-mode']);
    expect(names((await list(keys.live, '/v1/scheduled-sends')).data)).not.toContain('test-mode');
  });

  test('another project\'s sends never appear, and it never sees these', async () => {
    const seedCaller: ProjectCaller = { kind: 'project', mode: 'live', project: (await getProject(services().db, cloud.seed.project_id))! };
    const theirs = await createScheduledSend(services(), seedCaller, { content: content('theirs@example.com'), scheduledFor: hoursAhead(3), timezone: 'UTC' });
    const mine = (await list(keys.live, '/v1/scheduled-sends?per_page=200')).data.map((r) => r.id);
    expect(mine).not.toContain(theirs.id);
    const seen = (await list(cloud.seed.live_key, '/v1/scheduled-sends?per_page=200')).data.map((r) => r.id);
    expect(seen).toContain(theirs.id);
    for (const id of Object.values(ids)) expect(seen).not.toContain(id);
  });

  test('refuses a bad status, a bad time, from after to, page with cursor, a deep page and a foreign cursor', async () => {
    const refused = async (query: string, error: string) => {
      const res = await list(keys.live, `/v1/scheduled-sends?${query}`);
      expect([res.status, res.body.error]).toEqual([400, error]);
    };
    await refused('status=queued', 'status must be one of pending, processing, sent, failed, cancelled');
    await refused('from=yesterday', 'from must be an ISO 8601 timestamp');
    await refused(`from=${encodeURIComponent(at.p4)}&to=${encodeURIComponent(at.p2)}`, 'from must not be after to');
    await refused('page=2&cursor=abc', 'Pass either page or cursor, not both');
    await refused('page=6&per_page=200', "page * per_page may not exceed 1000; pass the previous page's next_cursor as cursor to read on");
    await refused('cursor=not-a-cursor', 'cursor is not valid for this list');
    expect((await cloud.api('GET', '/v1/scheduled-sends', { key: null as unknown as string })).status).toBe(401);
  });
});

describe('GET /v1/send-batch', () => {
  let keys: Awaited<ReturnType<typeof freshProject>>;
  const ids: Record<string, string> = {};

  /** A batch header as the API stores it, created `minutesAgo` minutes ago. */
  const store = async (name: string, status: BatchStatus, minutesAgo: number, over: Partial<Batch> = {}) => {
    const created = new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const batch: Batch = {
      id: randomUUID(),
      project_id: keys.caller('live').project.id,
      mode: 'live',
      status,
      created_at: created,
      updated_at: created,
      recipient_count: 10,
      duplicates_removed: 1,
      chunk_size: 500,
      chunk_count: 1,
      subject: 'Hello',
      sender_email: SENDER,
      email_type: 'marketing',
      ...(status === 'scheduled' || status === 'cancelled' ? { scheduled_for: hoursAhead(1).toISOString(), timezone: 'Europe/London' } : {}),
      ...(status === 'sent' ? { chunks_done: [0], queued_count: 7, suppressed_count: 2, cancelled_count: 0, failed_count: 1 } : {}),
      ...over,
    };
    await putBatch(services().db, batch, Math.floor(Date.now() / 1000) + 3600);
    ids[name] = batch.id;
  };

  beforeAll(async () => {
    keys = await freshProject();
    await store('sent-old', 'sent', 50);
    await store('cancelled', 'cancelled', 40);
    await store('sending', 'sending', 30, { chunk_count: 2, chunks_done: [0], queued_count: 5, suppressed_count: 0, cancelled_count: 0, failed_count: 0 });
    await store('scheduled', 'scheduled', 20);
    await store('sent-new', 'sent', 10);
    await store('wave', 'sent', 5, { campaign_id: randomUUID() });
    await store('test-mode', 'scheduled', 15, { mode: 'test' });
    // One through the API: its accept writes its list entry.
    const res = await cloud.api('POST', '/v1/send-batch', {
      key: keys.live,
      body: { sender: SENDER, subject: 'Later', html: '<p>Later</p>', recipients: ['a@example.com', 'b@example.com', 'a@example.com'], scheduled_at: hoursAhead(2).toISOString() },
    });
    expect(res.status).toBe(200);
    ids.api = res.body.batch_id as string;
  });

  const names = (rows: Row[]) => rows.map((r) => Object.keys(ids).find((name) => ids[name] === r.batch_id) ?? `unknown ${String(r.batch_id)}`);

  test('lists the project\'s batches of the key\'s mode, newest first, with status and counts; a campaign\'s waves are not listed', async () => {
    const res = await list(keys.live, '/v1/send-batch');
    expect(res.status).toBe(200);
    expect(names(res.data)).toEqual(['api', 'sent-new', 'scheduled', 'sending', 'cancelled', 'sent-old']);
    expect(res.pagination).toEqual({ page: 1, per_page: 50, total: 6, total_pages: 1, total_is_estimate: false, next_cursor: null });
    const byName = Object.fromEntries(res.data.map((r) => [names([r])[0], r]));
    expect(byName.api).toMatchObject({ status: 'scheduled', recipients: 2, duplicates_removed: 1, counts: { queued: 2, suppressed: 0, cancelled: 0, failed: 0 } });
    expect(byName['sent-new']).toMatchObject({ status: 'sent', scheduled_for: null, timezone: null, recipients: 10, counts: { queued: 7, suppressed: 2, cancelled: 0, failed: 1 } });
    expect(byName.cancelled).toMatchObject({ status: 'cancelled', counts: { queued: 0, suppressed: 0, cancelled: 10, failed: 0 } });
    expect(byName.sending).toMatchObject({ status: 'sending', counts: { queued: 5, suppressed: 0, cancelled: 0, failed: 0 } });
    // A scheduled batch reads as GET /v1/send-batch/{batchId} shows it, without `success`.
    const one = (await cloud.api('GET', `/v1/send-batch/${ids.scheduled}`, { key: keys.live })).body;
    const { success: _success, counts: oneCounts, ...rest } = one;
    expect(byName.scheduled).toMatchObject({ ...rest, counts: oneCounts });
  });

  test('status filters on every status', async () => {
    expect(names((await list(keys.live, '/v1/send-batch?status=sent')).data)).toEqual(['sent-new', 'sent-old']);
    expect(names((await list(keys.live, '/v1/send-batch?status=scheduled')).data)).toEqual(['api', 'scheduled']);
    expect(names((await list(keys.live, '/v1/send-batch?status=sending')).data)).toEqual(['sending']);
    expect(names((await list(keys.live, '/v1/send-batch?status=cancelled')).data)).toEqual(['cancelled']);
  });

  test('a batch cancelled through the API shows cancelled', async () => {
    expect((await cloud.api('DELETE', `/v1/send-batch/${ids.api}`, { key: keys.live })).status).toBe(200);
    expect(names((await list(keys.live, '/v1/send-batch?status=cancelled')).data)).toEqual(['api', 'cancelled']);
    expect(names((await list(keys.live, '/v1/send-batch?status=scheduled')).data)).toEqual(['scheduled']);
  });

  test('pages by page and per_page, then by cursor, with or without a status', async () => {
    const first = await list(keys.live, '/v1/send-batch?per_page=4');
    expect(names(first.data)).toEqual(['api', 'sent-new', 'scheduled', 'sending']);
    expect(first.pagination).toMatchObject({ page: 1, per_page: 4, total: 6, total_pages: 2, total_is_estimate: false });
    expect(names((await list(keys.live, '/v1/send-batch?per_page=4&page=2')).data)).toEqual(['cancelled', 'sent-old']);
    const next = await list(keys.live, `/v1/send-batch?per_page=4&cursor=${String(first.pagination.next_cursor)}`);
    expect(names(next.data)).toEqual(['cancelled', 'sent-old']);
    expect(next.pagination.next_cursor).toBeNull();

    const sentFirst = await list(keys.live, '/v1/send-batch?status=sent&per_page=1');
    expect(names(sentFirst.data)).toEqual(['sent-new']);
    expect(sentFirst.pagination.next_cursor).not.toBeNull();
    const sentNext = await list(keys.live, `/v1/send-batch?status=sent&per_page=1&cursor=${String(sentFirst.pagination.next_cursor)}`);
    expect(names(sentNext.data)).toEqual(['sent-old']);
  });

  test('a test key lists only test batches, a live key only live ones', async () => {
    expect(names((await list(keys.test, '/v1/send-batch')).data)).toEqual(['test-mode']);
    expect(names((await list(keys.live, '/v1/send-batch')).data)).not.toContain('test-mode');
  });

  test('another project\'s batches never appear, and it never sees these', async () => {
    const res = await cloud.api('POST', '/v1/send-batch', {
      body: { sender: cloud.seed.sender_email, subject: 'Theirs', html: '<p>Theirs</p>', recipients: ['theirs@example.com'], scheduled_at: hoursAhead(2).toISOString() },
    });
    expect(res.status).toBe(200);
    const theirs = res.body.batch_id as string;
    expect((await list(keys.live, '/v1/send-batch?per_page=200')).data.map((r) => r.batch_id)).not.toContain(theirs);
    const seen = (await list(cloud.seed.live_key, '/v1/send-batch?per_page=200')).data.map((r) => r.batch_id);
    expect(seen).toContain(theirs);
    for (const id of Object.values(ids)) expect(seen).not.toContain(id);
  });

  test('refuses a bad status, page with cursor, a deep page and a foreign cursor', async () => {
    const refused = async (query: string, error: string) => {
      const res = await list(keys.live, `/v1/send-batch?${query}`);
      expect([res.status, res.body.error]).toEqual([400, error]);
    };
    await refused('status=queued', 'status must be one of scheduled, sending, sent, cancelled');
    await refused('page=2&cursor=abc', 'Pass either page or cursor, not both');
    await refused('page=11&per_page=100', "page * per_page may not exceed 1000; pass the previous page's next_cursor as cursor to read on");
    await refused('cursor=not-a-cursor', 'cursor is not valid for this list');
    expect((await cloud.api('GET', '/v1/send-batch', { key: null as unknown as string })).status).toBe(401);
  });
});
