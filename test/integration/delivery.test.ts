import fs from 'node:fs';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { handler as sesEventsHandler } from '../../functions/ses-events/handler';
import { asFunction } from '../../local/iam/function-roles';
import { services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { createProject } from '../../shared/platform/projects/project-service';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { CLOUD_TIMEOUT_MS, WORKERS_EXCEPT_FANOUT, sendBody, startTestCloud, storedActivity, drainEvents, type TestCloud } from './support/test-cloud';

/** The SES events worker as Lambda runs it: as its own role. */
const sesEvents = asFunction('ses-events', sesEventsHandler);

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'ses');

let cloud: TestCloud;
let key: string;
let projectId: string;
const domain = 'hooked.example.org';

beforeAll(async () => {
  // This file reads the events queue itself, so the webhook fan-out must not consume it.
  cloud = await startTestCloud({ workers: WORKERS_EXCEPT_FANOUT });
  // A project with a webhook URL, so that its events are published to the events queue.
  const { db, clock } = services();
  const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'Hooked' });
  key = created.liveKey;
  projectId = created.project.id;
  await updateProjectFields(db, projectId, { webhook_url: 'https://hooks.example.com/mail' });
  const now = new Date().toISOString();
  await putDomain(db, { project_id: projectId, domain, identity_id: 'i', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});

const send = (overrides: Record<string, unknown> = {}, apiKey = key) =>
  cloud.api('POST', '/v1/send-email', { key: apiKey, body: sendBody(cloud, { sender_email: `news@${domain}`, ...overrides }) });
const waitFor = (id: string, until: (a: Record<string, any>) => boolean) => cloud.waitForActivity(id, key, until);
const get = (p: string) => cloud.api('GET', p, { key });

/** Feeds SES event JSON straight to the ses-events handler, as the queue would. */
async function feed(...bodies: unknown[]) {
  const event = { Records: bodies.map((b, i) => ({ messageId: `m${i}-${Date.now()}`, body: typeof b === 'string' ? b : JSON.stringify(b) })) } as SQSEvent;
  return (await sesEvents(event)) as { batchItemFailures: unknown[] };
}

/** A documented sample, re-tagged for one of our activities. */
function fixture(name: string, activityId: string, messageId: string, timestamp?: string): Record<string, any> {
  const sample = JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));
  const record = sample.Message ? JSON.parse(sample.Message) : (sample.detail ?? sample);
  record.mail.tags.activity_id = [activityId];
  record.mail.tags.project_id = [projectId];
  record.mail.messageId = messageId;
  if (timestamp) {
    const inner = Object.keys(record).find((k) => !['eventType', 'mail', 'notificationType'].includes(k));
    if (inner && record[inner] && typeof record[inner] === 'object' && 'timestamp' in record[inner]) record[inner].timestamp = timestamp;
  }
  if (sample.Message) sample.Message = JSON.stringify(record);
  return sample;
}

/**
 * A sent activity of the hooked project whose SES events the test feeds by hand. The recipient is a
 * simulator address the simulator knows nothing about, so it publishes only Send (no Delivery that
 * would race the test's own events).
 */
async function sentActivity(recipient = `quiet.${Date.now()}@simulator.amazonses.com`) {
  const res = await send({ recipient_email: recipient });
  const a = await waitFor(res.body.email_id as string, (x) => x.current_status !== 'queued');
  return { id: a.id as string, messageId: a.message_id as string, recipient };
}

describe('The mailbox simulator through the SES events handler', () => {
  test('a normal mail ends delivered, with sent and delivered on its timeline', async () => {
    const res = await send();
    const a = await waitFor(res.body.email_id as string, (x) => x.current_status === 'delivered');
    expect(a.delivered_at).toEqual(expect.any(String));
    // The local SES gives message ids as AWS does: 60 characters (the record's size depends on it).
    expect(a.message_id).toHaveLength(60);
    const events = (await get(`/v1/activity/${a.id}?include=events`)).body.data as Record<string, any>;
    expect(events.events.map((e: any) => e.event_type)).toEqual(['sent', 'delivered']);
  });

  test('bounce@: bounced, suppressed with suppression.added, and the next send is suppressed with email.suppressed', async () => {
    await drainEvents(cloud);
    const res = await send({ recipient_email: 'bounce@simulator.amazonses.com' });
    const a = await waitFor(res.body.email_id as string, (x) => x.current_status === 'bounced');
    expect(a.bounced_at).toEqual(expect.any(String));
    const timeline = ((await get(`/v1/activity/${a.id}?include=events`)).body.data as any).events;
    expect(timeline.find((e: any) => e.event_type === 'bounce')).toMatchObject({ bounce_type: 'Permanent', bounce_subtype: 'General' });
    const entry = await get('/v1/suppressions/bounce%40simulator.amazonses.com');
    expect(entry.body.data).toMatchObject({ email: 'bounce@simulator.amazonses.com', reason: 'bounce', source: 'ses', bounce_type: 'Permanent', bounce_subtype: 'General' });

    const next = await send({ recipient_email: 'bounce@simulator.amazonses.com' });
    await waitFor(next.body.email_id as string, (x) => x.current_status === 'suppressed');
    const events = await drainEvents(cloud);
    const added = events.filter((e) => e.event === 'suppression.added' && e.data.email === 'bounce@simulator.amazonses.com');
    expect(added).toHaveLength(1);
    expect(added[0].data).toMatchObject({ reason: 'bounce', source: 'ses', bounce_type: 'Permanent', bounce_subtype: 'General' });
    const suppressed = events.filter((e) => e.event === 'email.suppressed' && e.data.activity_id === next.body.email_id);
    expect(suppressed).toHaveLength(1);
    expect(suppressed[0]).not.toHaveProperty('is_test');
    expect(suppressed[0].data).toMatchObject({ email: 'bounce@simulator.amazonses.com', email_type: 'api', suppression_reason: 'bounce', suppression_source: 'ses' });
    expect(suppressed[0].data).not.toHaveProperty('message_id');
    const bounceHook = events.find((e) => e.event === 'email.bounce' && e.data.activity_id === a.id);
    expect(bounceHook).toMatchObject({ project_id: projectId, is_test: false, data: { event_type: 'bounce', bounce_type: 'Permanent', message_id: a.message_id } });
  });

  test('complaint@: delivered then complained, suppressed for complaint with its feedback type', async () => {
    await drainEvents(cloud);
    const res = await send({ recipient_email: 'complaint@simulator.amazonses.com' });
    // The Delivery and the Complaint may be applied in either order; wait for both.
    const a = await waitFor(res.body.email_id as string, (x) => x.current_status === 'complained' && Boolean(x.delivered_at));
    expect(a.delivered_at).toEqual(expect.any(String));
    expect(a.complained_at).toEqual(expect.any(String));
    expect((await get('/v1/suppressions/complaint%40simulator.amazonses.com')).body.data).toMatchObject({ reason: 'complaint', complaint_feedback_type: 'abuse' });
    const added = (await drainEvents(cloud)).find((e) => e.event === 'suppression.added' && e.data.email === 'complaint@simulator.amazonses.com');
    expect(added?.data).toMatchObject({ reason: 'complaint', complaint_feedback_type: 'abuse' });
    expect(added?.data).not.toHaveProperty('bounce_type');
  });

  test('suppressionlist@: bounced with subtype OnAccountSuppressionList, and no suppression.added', async () => {
    await drainEvents(cloud);
    const res = await send({ recipient_email: 'suppressionlist@simulator.amazonses.com' });
    const a = await waitFor(res.body.email_id as string, (x) => x.current_status === 'bounced');
    const timeline = ((await get(`/v1/activity/${a.id}?include=events`)).body.data as any).events;
    expect(timeline.find((e: any) => e.event_type === 'bounce')).toMatchObject({ bounce_type: 'Permanent', bounce_subtype: 'OnAccountSuppressionList' });
    expect((await get('/v1/suppressions/suppressionlist%40simulator.amazonses.com')).status).toBe(404);
    expect((await drainEvents(cloud)).filter((e) => e.event === 'suppression.added')).toEqual([]);
  });

  test('ooto@: delivered, with a delivery delay on the timeline', async () => {
    const res = await send({ recipient_email: 'ooto@simulator.amazonses.com' });
    await waitFor(res.body.email_id as string, (x) => x.current_status === 'delivered');
    for (let i = 0; i < 20; i++) {
      const types = ((await get(`/v1/activity/${res.body.email_id}?include=events`)).body.data as any).events.map((e: any) => e.event_type);
      if (types.includes('delivery_delay')) return expect(types).toEqual(expect.arrayContaining(['sent', 'delivered', 'delivery_delay']));
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('no delivery_delay event');
  });
});

describe('SES events out of order and more than once (part 3)', () => {
  test('a late Delivery never undoes a Bounce', async () => {
    const { id, messageId } = await sentActivity();
    await feed(fixture('bounce', id, messageId, '2030-01-01T00:00:02.000Z'));
    await feed(fixture('delivery', id, messageId, '2030-01-01T00:00:01.000Z'));
    const a = await storedActivity(id);
    expect(a?.current_status).toBe('bounced');
    expect(a?.delivered_at).toBe('2030-01-01T00:00:01.000Z');
  });

  test('the same event twice changes nothing the second time', async () => {
    const { id, messageId } = await sentActivity();
    const event = fixture('delivery', id, messageId, '2030-01-01T00:00:01.000Z');
    await feed(event);
    const first = await storedActivity(id);
    await feed(event, JSON.stringify(event));
    const second = await storedActivity(id);
    expect(second).toEqual(first);
    // delivered_at tells the entry: one `delivered` on the timeline shown, none stored.
    const events = ((await get(`/v1/activity/${id}?include=events`)).body.data as any).events as { event_type: string }[];
    expect(events.filter((e) => e.event_type === 'delivered')).toHaveLength(1);
    expect(second?.timeline ?? []).toEqual([]);
  });

  test('the same Bounce again, redelivered and twice in one batch, publishes email.bounce once and counts one hard bounce (issue 19)', async () => {
    await drainEvents(cloud);
    const hardBounced = async () => ((await get('/v1/domain-stats')).body.data as any[]).find((r) => r.sender_domain === domain)?.hard_bounced ?? 0;
    const before = await hardBounced();
    const { id, messageId } = await sentActivity();
    const event = fixture('bounce', id, messageId, new Date().toISOString());
    await feed(event);
    await feed(event);
    await feed(event, JSON.stringify(event));
    expect((await storedActivity(id))?.current_status).toBe('bounced');
    const mine = (await drainEvents(cloud)).filter((e) => e.data?.activity_id === id);
    expect(mine.filter((e) => e.event === 'email.bounce')).toHaveLength(1);
    expect(await hardBounced()).toBe(before + 1);
  });

  test('first open and first click keep the earliest time; each counts once', async () => {
    const { id, messageId } = await sentActivity();
    await feed(fixture('open', id, messageId, '2030-01-01T10:00:00.000Z'));
    await feed(fixture('open', id, messageId, '2030-01-01T09:00:00.000Z'));
    await feed(fixture('click', id, messageId, '2030-01-01T11:00:00.000Z'));
    await feed(fixture('click', id, messageId, '2030-01-01T11:00:00.000Z'));
    const a = await storedActivity(id);
    expect(a?.opened_first_at).toBe('2030-01-01T09:00:00.000Z');
    expect(a?.clicked_first_at).toBe('2030-01-01T11:00:00.000Z');
    const events = ((await get(`/v1/activity/${id}?include=events`)).body.data as any).events;
    expect(events.filter((e: any) => e.event_type === 'open')).toHaveLength(2);
    expect(events.filter((e: any) => e.event_type === 'click')).toEqual([expect.objectContaining({ url_clicked: expect.stringMatching(/^http/), ip_address: '192.0.2.1' })]);
  });

  test('a Reject fails the send with rejected and emits email.reject and email.failed once', async () => {
    await drainEvents(cloud);
    const { id, messageId } = await sentActivity();
    await feed(fixture('reject', id, messageId));
    await feed(fixture('reject', id, messageId));
    expect((await storedActivity(id))?.failure).toMatchObject({ error_code: 'rejected', permanent: true });
    const mine = (await drainEvents(cloud)).filter((e) => e.data?.activity_id === id);
    expect(mine.filter((e) => e.event === 'email.failed')).toHaveLength(1);
    expect(mine.find((e) => e.event === 'email.failed')?.data).toMatchObject({ error_code: 'rejected', permanent: true, message_id: null });
    expect(mine.filter((e) => e.event === 'email.reject')).toHaveLength(1);
  });

  test.each([
    ['send', 'sent'],
    ['delivery', 'delivered'],
    ['bounce', 'bounced'],
    ['bounce-transient', 'bounced'],
    ['complaint', 'complained'],
    ['rendering_failure', 'failed'],
    ['delivery_delay', 'sent'],
    ['subscription', 'sent'],
    ['sns-envelope-delivery', 'delivered'],
    ['eventbridge-bounce', 'bounced'],
  ])('the documented %s sample is applied (status %s)', async (name, status) => {
    const { id, messageId } = await sentActivity();
    const result = await feed(fixture(name, id, messageId));
    expect(result.batchItemFailures).toEqual([]);
    expect((await storedActivity(id))?.current_status).toBe(status);
  });

  test('an event for no activity of ours is acknowledged, and garbage is retried (then dead-lettered)', async () => {
    const foreign = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'notification-bounce.json'), 'utf8'));
    expect((await feed(foreign)).batchItemFailures).toEqual([]);
    expect((await feed('not json')).batchItemFailures).toHaveLength(1);
  });
});

describe('GET /v1/activity (4.11)', () => {
  let lister: { key: string; id: string; testKey: string };
  const ids: string[] = [];

  beforeAll(async () => {
    const { db, clock } = services();
    const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: 'Lister' });
    lister = { key: created.liveKey, id: created.project.id, testKey: created.testKey };
    const now = new Date().toISOString();
    for (const d of ['one.example.org', 'two.example.org']) {
      await putDomain(db, { project_id: lister.id, domain: d, identity_id: d, verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
    }
    const plan = [
      ['a@example.net', 'one.example.org'],
      ['b@example.net', 'one.example.org'],
      ['A@example.net', 'two.example.org'],
      ['bounce@simulator.amazonses.com', 'two.example.org'],
      ['c@example.net', 'one.example.org'],
    ];
    for (const [to, from] of plan) {
      const res = await cloud.api('POST', '/v1/send-email', { key: lister.key, body: sendBody(cloud, { recipient_email: to, sender_email: `x@${from}` }) });
      ids.push(res.body.email_id as string);
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const id of ids) await cloud.waitForActivity(id, lister.key, (a) => ['delivered', 'bounced'].includes(a.current_status as string));
  });

  const list = (query: string) => cloud.api('GET', `/v1/activity${query}`, { key: lister.key });

  test('newest first, paginated with totals', async () => {
    const all = await list('');
    expect(all.body.pagination).toEqual({ page: 1, per_page: 50, total: 5, total_pages: 1, total_is_estimate: false, next_cursor: null });
    expect((all.body.data as any[]).map((a) => a.id)).toEqual([...ids].reverse());
    const page2 = await list('?per_page=2&page=2');
    expect(page2.body.pagination).toEqual({ page: 2, per_page: 2, total: 5, total_pages: 3, total_is_estimate: false, next_cursor: expect.any(String) });
    expect((page2.body.data as any[]).map((a) => a.id)).toEqual([ids[2], ids[1]]);
    expect(((await list('?per_page=2&page=4')).body.data as any[])).toEqual([]);
  });

  test('next_cursor reads on page by page, and deep offsets are refused in favour of it', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(`?per_page=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...(res.body.data as any[]).map((a) => a.id));
      cursor = (res.body.pagination as any).next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const deep = await list('?per_page=200&page=6');
    expect(deep.status).toBe(400);
    expect(deep.body.error).toBe("page * per_page may not exceed 1000; pass the previous page's next_cursor as cursor to read on");
    const both = await list(`?page=2&cursor=${((await list('?per_page=2')).body.pagination as any).next_cursor}`);
    expect(both.status).toBe(400);
    expect((await list('?cursor=bm90IGpzb24')).body.error).toBe('cursor is not valid for this list');
  });

  test('email is matched lowercased', async () => {
    const res = await list('?email=A@EXAMPLE.NET');
    expect((res.body.data as any[]).map((a) => a.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect((res.body.pagination as any).total).toBe(2);
  });

  test('sender_domain matches the full domain, with or without @', async () => {
    expect(((await list('?sender_domain=two.example.org')).body.pagination as any).total).toBe(2);
    expect(((await list('?sender_domain=@one.example.org')).body.pagination as any).total).toBe(3);
    expect(((await list('?sender_domain=example.org')).body.pagination as any).total).toBe(0);
    const bad = await list('?sender_domain=not a domain');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_SENDER_DOMAIN');
  });

  test('status filters rare and common statuses alike', async () => {
    expect((await list('?status=bounced')).body.data).toEqual([expect.objectContaining({ id: ids[3], current_status: 'bounced' })]);
    expect(((await list('?status=delivered')).body.pagination as any).total).toBe(4);
    expect((await list('?status=nonsense')).status).toBe(400);
  });

  test('since and until bound the creation time', async () => {
    const third = (await cloud.api('GET', `/v1/activity/${ids[2]}`, { key: lister.key })).body.data as any;
    const res = await list(`?since=${encodeURIComponent(third.created_at)}`);
    expect((res.body.data as any[]).map((a) => a.id)).toEqual([ids[4], ids[3], ids[2]]);
    const before = await list(`?until=${encodeURIComponent(third.created_at)}&sender_domain=one.example.org`);
    expect((before.body.data as any[]).map((a) => a.id)).toEqual([ids[1], ids[0]]);
  });

  test('campaign_id and automation_run_id each have their own list', async () => {
    const { putActivity } = await import('../../shared/mail-pipeline/activity/activity-repository');
    const make = (n: number, extra: Record<string, string>) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      project_id: lister.id,
      created_at: `2030-01-01T00:00:0${n}.000Z`,
      updated_at: `2030-01-01T00:00:0${n}.000Z`,
      email_type: 'marketing',
      subject: 'Campaign',
      sender_email: 'x@one.example.org',
      recipient_primary: `c${n}@example.net`,
      recipient_count: 1,
      current_status: 'delivered' as const,
      is_test: false,
      ...extra,
    });
    const ttl = Math.floor(Date.now() / 1000) + 3600;
    await putActivity(services().db, make(1, { campaign_id: 'camp-1' }), ttl);
    await putActivity(services().db, make(2, { campaign_id: 'camp-1' }), ttl);
    await putActivity(services().db, make(3, { automation_run_id: 'run-9' }), ttl);
    const campaign = await list('?campaign_id=camp-1');
    expect((campaign.body.data as any[]).map((a) => a.id)).toEqual([make(2, {}).id, make(1, {}).id]);
    expect((campaign.body.pagination as any).total).toBe(2);
    const run = await list('?automation_run_id=run-9');
    expect((run.body.data as any[]).map((a) => [a.id, a.automation_run_id])).toEqual([[make(3, {}).id, 'run-9']]);
    expect(((await list('?campaign_id=camp-1&status=bounced')).body.pagination as any).total).toBe(0);
  });

  test("another project's activity never shows", async () => {
    const res = await cloud.api('GET', '/v1/activity', { key: cloud.seed.live_key });
    expect((res.body.data as any[]).some((a) => ids.includes(a.id))).toBe(false);
  });

  test('is_test keeps only test mail (true) or only live mail (false), as a dashboard\'s test and live views show them', async () => {
    const res = await cloud.api('POST', '/v1/send-email', { key: lister.testKey, body: sendBody(cloud, { recipient_email: 'test.view@example.net', sender_email: 'x@two.example.org' }) });
    const testId = res.body.email_id as string;
    await cloud.waitForActivity(testId, lister.testKey, (a) => a.current_status === 'delivered');
    const tests = await list('?is_test=true');
    expect((tests.body.data as any[]).map((a) => [a.id, a.is_test])).toEqual([[testId, true]]);
    const live = (await list('?is_test=false')).body.data as any[];
    expect(live.map((a) => a.id)).toEqual(expect.arrayContaining(ids));
    expect(live.every((a) => a.is_test === false)).toBe(true);
    expect(live.map((a) => a.id)).not.toContain(testId);
    expect(((await list('?is_test=true&sender_domain=one.example.org')).body.data as any[])).toEqual([]);
    const bad = await list('?is_test=yes');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/is_test must be true or false/);
  });

  test('GET /v1/domain-stats counts per sender domain, test sends excluded', async () => {
    await cloud.api('POST', '/v1/send-email', {
      key: (await createProjectKeyFor(lister.id)) ?? lister.key,
      body: sendBody(cloud, { sender_email: 'x@one.example.org' }),
    });
    const res = await cloud.api('GET', '/v1/domain-stats', { key: lister.key });
    const rows = Object.fromEntries((res.body.data as any[]).map((r) => [r.sender_domain, r]));
    expect(rows['one.example.org']).toMatchObject({ total_sent: 3, total_delivered: 3, hard_bounced: 0, hard_bounce_rate: 0 });
    expect(rows['two.example.org']).toMatchObject({ total_sent: 2, total_delivered: 1, hard_bounced: 1, hard_bounce_rate: 50 });
    expect(res.body.period).toEqual({ since: expect.any(String), until: expect.any(String) });
  });
});

/** The test key of a project is not kept by the test; rotate one to send a test-mode mail. */
async function createProjectKeyFor(projectId: string): Promise<string | undefined> {
  const { rotateProjectKey } = await import('../../shared/platform/projects/project-service');
  return rotateProjectKey(services().db, projectId, 'test');
}

describe('The suppression list API', () => {
  test('add by hand, read, list with pagination and reason filter, remove once', async () => {
    const emails = ['m1@example.net', 'M2@example.net', 'm3@example.net'];
    const added = await get('/v1/suppressions');
    expect(added.status).toBe(200);
    const res = await cloud.api('POST', '/v1/suppressions', { key, body: { emails } });
    expect(res.status).toBe(201);
    expect(res.body.added).toEqual(['m1@example.net', 'm2@example.net', 'm3@example.net']);
    expect((await cloud.api('POST', '/v1/suppressions', { key, body: { email: 'm1@example.net' } })).body.already).toEqual(['m1@example.net']);
    expect((await get('/v1/suppressions/m2%40example.net')).body.data).toMatchObject({ email: 'm2@example.net', reason: 'manual', source: 'api' });
    const manual = await get('/v1/suppressions?reason=manual&per_page=2');
    expect(manual.body.pagination).toMatchObject({ per_page: 2, total: 3, total_pages: 2 });
    expect(manual.body.data).toHaveLength(2);
    const rest = await get(`/v1/suppressions?reason=manual&per_page=2&cursor=${(manual.body.pagination as any).next_cursor}`);
    expect((rest.body.data as any[]).map((e) => e.email)).toEqual(['m3@example.net']);
    expect(rest.body.pagination).toMatchObject({ total: 1, total_is_estimate: false, next_cursor: null });
    expect((await get('/v1/suppressions?per_page=200&page=6')).status).toBe(400);
    await drainEvents(cloud);
    expect((await cloud.api('DELETE', '/v1/suppressions/m1%40example.net', { key })).status).toBe(200);
    expect((await cloud.api('DELETE', '/v1/suppressions/m1%40example.net', { key })).status).toBe(404);
    const removed = (await drainEvents(cloud)).filter((e) => e.event === 'suppression.removed');
    expect(removed).toEqual([expect.objectContaining({ data: { email: 'm1@example.net', removed_at: expect.any(String), removed_by: 'api' } })]);
  });

  test('a bulk removal emits suppression.removed for at most 200 addresses', async () => {
    const emails = Array.from({ length: 205 }, (_, i) => `bulk${i}@example.net`);
    await cloud.api('POST', '/v1/suppressions', { key, body: { emails } });
    await drainEvents(cloud);
    const res = await cloud.api('POST', '/v1/suppressions/remove', { key, body: { emails: [...emails, 'never@example.net'] } });
    expect((res.body.removed as string[]).length).toBe(205);
    expect(res.body.not_found).toEqual(['never@example.net']);
    expect((await drainEvents(cloud)).filter((e) => e.event === 'suppression.removed')).toHaveLength(200);
  });

  test('a removed address can be sent to again', async () => {
    await cloud.api('POST', '/v1/suppressions', { key, body: { email: 'back@example.net' } });
    await cloud.api('DELETE', '/v1/suppressions/back%40example.net', { key });
    const res = await send({ recipient_email: 'back@example.net' });
    expect((await waitFor(res.body.email_id as string, (a) => !['queued', 'sent'].includes(a.current_status))).current_status).toBe('delivered');
  });
});

describe('email.failed (part 6)', () => {
  test('is emitted once per API send on its final failure, with error_code, permanent and a null message_id', async () => {
    await drainEvents(cloud);
    const res = await send({ attachments: [{ filename: 'x.pdf', url: 'http://127.0.0.1:9/nothing.pdf' }] });
    await waitFor(res.body.email_id as string, (a) => a.current_status === 'failed');
    const failed = (await drainEvents(cloud)).filter((e) => e.event === 'email.failed' && e.data.activity_id === res.body.email_id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ is_test: false, project_id: projectId });
    expect(failed[0].data).toMatchObject({ error_code: 'attachment_error', permanent: true, message_id: null });
  });
});
