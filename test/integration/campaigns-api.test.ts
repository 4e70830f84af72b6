import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { setEvaluation } from '../../shared/audience/leads/segment-repository';
import type { Campaign } from '../../shared/marketing/campaigns/campaign';
import { getCampaign, putNewCampaign } from '../../shared/marketing/campaigns/campaign-gateway';
import { overrideServices, services } from '../../composition/services';
import { getSender } from '../../shared/identities/domains/sender-repository';
import type { Clock, Queue } from '../../shared/platform/core/ports';
import { campaignIdsObjectKey, campaignKey } from '../../shared/platform/store/keys';
import { deleteTemplate, getTemplate, listTemplateUsage } from '../../shared/mail-pipeline/templates/template-repository';
import { CLOUD_TIMEOUT_MS, startTestCloud, type ApiAnswer, type TestCloud } from './support/test-cloud';

/**
 * The campaigns API (4.8, issue 17 items 1, 5 and 7). The engine is not run here (its worker is
 * off): these tests check what the API writes, answers and queues.
 */

let cloud: TestCloud;
let senderId: string;
let realQueue: Queue;
let realClock: Clock;
/** Engine messages queued by the API during a test. */
let queued: { name: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  const sender = await getSender(services().db, cloud.seed.project_id, cloud.seed.sender_email);
  senderId = sender!.id;
  realQueue = services().queue;
  realClock = services().clock;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

beforeEach(() => {
  queued = [];
  overrideServices({ queue: recordingQueue(), clock: realClock });
});
afterEach(() => overrideServices({ queue: realQueue, clock: realClock }));

/** The real queue, noting each engine message. */
function recordingQueue(failCampaigns = false): Queue {
  return {
    send: async (name, body, options) => {
      if (name === 'campaigns') {
        if (failCampaigns) throw new Error('enqueue refused by the test');
        queued.push({ name, body: body as Record<string, unknown> });
      }
      return realQueue.send(name, body, options);
    },
    sendBatch: (name, bodies, options) => realQueue.sendBatch(name, bodies, options),
    changeVisibility: (name, handle, seconds) => realQueue.changeVisibility(name, handle, seconds),
  };
}

const fixedClock = (iso: string): Clock => ({ now: () => new Date(iso) });
let n = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${n++}`;

async function template(subject: string | null = 'Template subject'): Promise<{ id: string; internal_id: number }> {
  const res = await cloud.api('POST', '/v1/templates', { body: { name: unique('Campaign template'), html: '<p>Hello {{name}}</p>', ...(subject ? { subject } : {}) } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; internal_id: number };
}

const post = (body: unknown, key?: string) => cloud.api('POST', '/v1/campaigns', { body, key });

/** A valid body: its own name and subject (so no duplicate window matches), one lead id. */
async function validBody(over: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const t = over.templateId === undefined && over.templateInternalId === undefined ? await template() : undefined;
  return { name: unique('Campaign'), subject: unique('Subject'), templateId: t?.id, senderProfileId: senderId, recipientIds: [randomUUID()], ...over };
}

async function created(over: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await post(await validBody(over));
  expect(res.status).toBe(200);
  return res.body.campaign as Record<string, unknown>;
}

const expectError = (res: ApiAnswer, status: number, error: string) => {
  expect(res.status).toBe(status);
  expect(res.body.error).toBe(error);
};

describe('POST /v1/campaigns', () => {
  test('answers 200 {success, campaign} in initializing, writes the campaign and queues its init', async () => {
    const leadA = randomUUID();
    const leadB = randomUUID();
    const body = await validBody({ name: 'Spring Sale!', recipientIds: [leadA, leadB, leadA], previewText: 'Up to 30% off', variableConfig: { defaults: { name: 'friend' }, mappings: { name: 'name' } } });
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const campaign = res.body.campaign as Record<string, unknown>;
    expect(campaign).toMatchObject({
      name: 'Spring Sale!',
      subject: body.subject,
      preview_text: 'Up to 30% off',
      status: 'initializing',
      template_id: body.templateId,
      sender_profile_id: senderId,
      total_recipients: 2,
      emails_sent: 0,
      emails_failed: 0,
      batch_mode: false,
      batch_interval_hours: 24,
      scheduled_for: null,
      started_at: null,
      completed_at: null,
      next_batch_at: null,
      select_all_recipients: false,
      variable_config: { defaults: { name: 'friend' }, mappings: { name: 'name' } },
      schedule_type: 'scheduled',
      audience: { kind: 'ids', count: 2 },
    });
    expect(campaign.utm_campaign).toMatch(/^spring-sale-[0-9a-f]{6}$/);

    const stored = (await getCampaign(services().db, campaign.id as string, true))!;
    expect(stored).toMatchObject({ status: 'initializing', frozen_at: campaign.created_at, step: 0, released: 0, mode: 'live', name_lc: 'spring sale!' });
    const ids = JSON.parse((await services().blobs.get(campaignIdsObjectKey(cloud.seed.project_id, stored.id))).toString('utf8'));
    expect(ids).toEqual([leadA, leadB]);
    expect(queued).toEqual([{ name: 'campaigns', body: { v: 1, kind: 'init', campaign_id: stored.id, project_id: cloud.seed.project_id } }]);
  });

  test("the subject defaults to the template's; a template without one needs a subject", async () => {
    const t = await template('From the template');
    expect((await created({ templateId: t.id, subject: undefined })).subject).toBe('From the template');
    const bare = await template(null);
    expectError(await post(await validBody({ templateId: bare.id, subject: undefined })), 400, 'subject is required: the template has no subject');
  });

  test('part 7 messages, to the letter', async () => {
    expectError(await post({ templateId: randomUUID(), senderProfileId: senderId }), 400, 'Missing required fields: name, templateId, senderProfileId');
    expectError(await post({ name: 'x', templateId: randomUUID(), senderProfileId: senderId }), 400, 'recipientIds is required when selectAllRecipients is false');
    expectError(await post({ name: 'x', templateId: randomUUID(), senderProfileId: senderId, selectAllRecipients: true }), 400, 'recipientCount is required when selectAllRecipients is true');
    expectError(await post({ name: 'x', templateId: randomUUID(), senderProfileId: senderId, recipientIds: [randomUUID()], scheduledFor: 1700000000 }), 400, 'scheduledFor must be a string (ISO timestamp)');
  });

  test('a scheduledFor in the past: 400 scheduledFor must be in the future; a future one is kept', async () => {
    expectError(await post(await validBody({ scheduledFor: new Date(Date.now() - 60_000).toISOString() })), 400, 'scheduledFor must be in the future');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await created({ scheduledFor: at })).scheduled_for).toBe(at);
  });

  test('scheduleType delay: scheduled_for is now plus the delay (fixed clock)', async () => {
    overrideServices({ clock: fixedClock('2026-11-24T10:00:00.000Z') });
    const campaign = await created({ scheduleType: 'delay', delayAmount: 90, delayUnit: 'minutes' });
    expect(campaign).toMatchObject({ schedule_type: 'delay', scheduled_for: '2026-11-24T11:30:00.000Z', created_at: '2026-11-24T10:00:00.000Z' });
  });

  test('templateInternalId names the template; an unknown template is 404 Template not found with ID ...', async () => {
    const t = await template();
    expect((await created({ templateId: undefined, templateInternalId: t.internal_id })).template_id).toBe(t.id);
    const missing = randomUUID();
    expectError(await post(await validBody({ templateId: missing })), 404, `Template not found with ID ${missing}`);
    expectError(await post(await validBody({ templateId: undefined, templateInternalId: 999999 })), 404, 'Template not found with ID 999999');
  });

  test("another project's template or sender profile is not found", async () => {
    const other = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: unique('Other') } });
    const otherKey = other.body.api_key as string;
    const t = await template();
    expectError(await post(await validBody({ templateId: t.id }), otherKey), 404, `Template not found with ID ${t.id}`);
    const own = await cloud.api('POST', '/v1/templates', { key: otherKey, body: { name: 'Own', html: '<p/>', subject: 'S' } });
    expectError(await post(await validBody({ templateId: (own.body.data as { id: string }).id }), otherKey), 404, `Sender profile not found with ID ${senderId}`);
  });

  test('a sender profile that cannot send yet: 422 SENDER_NOT_VERIFIED', async () => {
    const domain = `camp-${randomUUID().slice(0, 8)}.example.com`;
    const reg = await cloud.api('POST', '/domains/register', { body: { domain, sender_name: 'Pending', sender_email: `hello@${domain}` } });
    expect(reg.status).toBeLessThan(300);
    const pending = await getSender(services().db, cloud.seed.project_id, `hello@${domain}`);
    const res = await post(await validBody({ senderProfileId: pending!.id }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('SENDER_NOT_VERIFIED');
  });

  test('selectAllRecipients with a recipientFilter: the filter is stored, its faults are 400s', async () => {
    const filter = { match: 'any', conditions: [{ tags: { any: ['vip'] } }, { attribute: 'plan', op: 'eq', value: 'pro' }] };
    const campaign = await created({ recipientIds: undefined, selectAllRecipients: true, recipientCount: 5000, recipientFilter: filter });
    expect(campaign).toMatchObject({ select_all_recipients: true, recipient_count_expected: 5000, total_recipients: 0, audience: { kind: 'filter', filter } });
    const bad = await post(await validBody({ recipientIds: undefined, selectAllRecipients: true, recipientCount: 1, recipientFilter: { conditions: [] } }));
    expectError(bad, 400, 'recipientFilter.conditions must be a non-empty array');
    expect((await created({ recipientIds: undefined, selectAllRecipients: true, recipientCount: 10 })).audience).toEqual({ kind: 'all' });
  });

  test('segmentId: a static segment; a dynamic one needs a finished evaluation; an unknown one is 404', async () => {
    const seg = await cloud.api('POST', '/v1/segments', { body: { name: unique('Static') } });
    expect(seg.status).toBeLessThan(300);
    const segmentId = (seg.body.segment as { id: string }).id;
    expect((await created({ recipientIds: undefined, segmentId })).audience).toEqual({ kind: 'segment', segment_id: segmentId, dynamic: false });
    const missing = randomUUID();
    expectError(await post(await validBody({ recipientIds: undefined, segmentId: missing })), 404, `Segment not found with ID ${missing}`);
    // The audience worker is off here: the dynamic segment's first evaluation never finishes.
    const dyn = await cloud.api('POST', '/v1/segments', { body: { name: unique('Dynamic'), type: 'dynamic', filter: { conditions: [{ tags: { any: ['vip'] } }] } } });
    expect(dyn.status).toBeLessThan(300);
    const res = await post(await validBody({ recipientIds: undefined, segmentId: (dyn.body.segment as { id: string }).id }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('SEGMENT_NOT_EVALUATED');
    // Once a run has finished, its generation is the campaign's audience: a later run does not change it.
    const dynId = (dyn.body.segment as { id: string }).id;
    const done = { status: 'done' as const, generation: 3, started_at: new Date().toISOString(), evaluated_at: new Date().toISOString(), member_count: 12 };
    expect(await setEvaluation(services().db, cloud.seed.project_id, dynId, done, { currentGeneration: 3 })).toBe(true);
    expect((await created({ recipientIds: undefined, segmentId: dynId })).audience).toEqual({ kind: 'segment', segment_id: dynId, dynamic: true, generation: 3 });
  });

  test('followUp: the earlier campaign must be the project\'s own', async () => {
    const first = await created();
    const follow = await created({ recipientIds: undefined, followUp: { campaignId: first.id, audience: 'not_opened' } });
    expect(follow.audience).toEqual({ kind: 'follow_up', campaign_id: first.id, audience: 'not_opened' });
    const missing = randomUUID();
    expectError(await post(await validBody({ recipientIds: undefined, followUp: { campaignId: missing, audience: 'not_delivered' } })), 404, `Campaign not found with ID ${missing}`);
  });

  test('the init cannot be queued: 500 Failed to create campaign, the campaign is failed and its template free', async () => {
    overrideServices({ queue: recordingQueue(true) });
    const body = await validBody();
    expectError(await post(body), 500, 'Failed to create campaign');
    overrideServices({ queue: recordingQueue() });
    const list = await cloud.api('GET', '/v1/campaigns?status=failed&per_page=200');
    expect((list.body.campaigns as { name: string }[]).some((c) => c.name === body.name)).toBe(true);
    expect(await listTemplateUsage(services().db, cloud.seed.project_id, body.templateId as string)).toEqual([]);
    expect((await cloud.api('DELETE', `/v1/templates/${body.templateId}`)).status).toBe(200);
  });

  test('a disabled project may not create campaigns', async () => {
    const other = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: unique('Disabled') } });
    await cloud.api('DELETE', `/v1/partner/projects/${other.body.project_id}`, { key: cloud.seed.partner_key });
    const res = await post({ name: 'x', templateId: randomUUID(), senderProfileId: senderId, recipientIds: [randomUUID()] }, other.body.api_key as string);
    expect(res.status).toBe(403);
  });
});

describe('duplicate detection (409 duplicate_campaign)', () => {
  test('the same subject within 60 minutes, compared case-insensitively: subject_match_60min; confirmDuplicate creates anyway', async () => {
    overrideServices({ clock: fixedClock('2026-11-24T08:00:00.000Z') });
    const subject = unique('Weekly News');
    const first = await created({ subject });
    overrideServices({ clock: fixedClock('2026-11-24T08:59:00.000Z') });
    const again = await post(await validBody({ subject: `  ${subject.toUpperCase()} ` }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: 'duplicate_campaign',
      warning: 'duplicate_campaign',
      reason: 'subject_match_60min',
      message: expect.any(String),
      existingCampaignId: first.id,
      existingCampaignStatus: 'initializing',
    });
    expect((await post(await validBody({ subject, confirmDuplicate: true }))).status).toBe(200);
    overrideServices({ clock: fixedClock('2026-11-24T09:01:00.000Z') });
    expect((await post(await validBody({ subject: subject.toLowerCase() }))).status).toBe(409); // the confirmed one, created at 08:59
    overrideServices({ clock: fixedClock('2026-11-24T10:00:00.000Z') });
    expect((await post(await validBody({ subject }))).status).toBe(200);
  });

  test('the same name and template within 24 hours while not finished: name_template_24h; a cancelled one does not count', async () => {
    overrideServices({ clock: fixedClock('2026-11-20T08:00:00.000Z') });
    const t = await template();
    const name = unique('Monthly Digest');
    const first = await created({ name, templateId: t.id });
    overrideServices({ clock: fixedClock('2026-11-21T07:59:00.000Z') });
    const again = await post(await validBody({ name: name.toLowerCase(), templateId: t.id }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ warning: 'duplicate_campaign', reason: 'name_template_24h', existingCampaignId: first.id, existingCampaignStatus: 'initializing' });
    const otherTemplate = await post(await validBody({ name }));
    expect(otherTemplate.status).toBe(200);
    expect((await cloud.api('POST', `/v1/campaigns/${first.id}/cancel`)).status).toBe(200);
    expect((await post(await validBody({ name, templateId: t.id }))).status).toBe(200);
    overrideServices({ clock: fixedClock('2026-11-22T09:00:00.000Z') });
    expect((await post(await validBody({ name, templateId: t.id }))).status).toBe(200);
  });
});

describe('template in use (4.7)', () => {
  test('a campaign uses its template: DELETE answers 409 TEMPLATE_IN_USE listing it until the campaign is cancelled', async () => {
    const t = await template();
    const campaign = await created({ templateId: t.id });
    const refused = await cloud.api('DELETE', `/v1/templates/${t.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'TEMPLATE_IN_USE', campaigns: [campaign.id], automation_nodes: [] });
    expect((await cloud.api('POST', `/v1/campaigns/${campaign.id}/cancel`)).status).toBe(200);
    expect((await cloud.api('DELETE', `/v1/templates/${t.id}`)).status).toBe(200);
  });

  test('force=true deletes a used template; the campaign keeps its marker until it ends', async () => {
    const t = await template();
    const campaign = await created({ templateId: t.id });
    expect((await cloud.api('DELETE', `/v1/templates/${t.id}?force=true`)).status).toBe(200);
    expect(await listTemplateUsage(services().db, cloud.seed.project_id, t.id)).toEqual([{ kind: 'campaign', id: campaign.id }]);
    expect((await cloud.api('POST', `/v1/campaigns/${campaign.id}/cancel`)).status).toBe(200);
    expect(await listTemplateUsage(services().db, cloud.seed.project_id, t.id)).toEqual([]);
  });

  test('the race: a campaign written after its template was deleted is refused, and a delete after a use is refused', async () => {
    const { db } = services();
    // The campaign's transaction checks the template: deleted between the API's read and the write, nothing is written.
    const gone = await template();
    const goneTemplate = (await getTemplate(db, cloud.seed.project_id, gone.id))!;
    expect(await deleteTemplate(db, goneTemplate)).toBe(true);
    const orphan = { id: randomUUID(), project_id: cloud.seed.project_id, template_id: gone.id, created_at: new Date().toISOString(), status: 'initializing' } as Campaign;
    expect(await putNewCampaign(db, orphan)).toBe('template_missing');
    expect(await getCampaign(db, orphan.id, true)).toBeUndefined();
    expect(await listTemplateUsage(db, cloud.seed.project_id, gone.id)).toEqual([]);

    // The delete's transaction checks the use count: a use recorded after the delete looked at the markers cancels it.
    const used = await template();
    await created({ templateId: used.id });
    const usedTemplate = (await getTemplate(db, cloud.seed.project_id, used.id))!;
    expect(await deleteTemplate(db, usedTemplate)).toBe(false);
    expect(await getTemplate(db, cloud.seed.project_id, used.id)).toBeDefined();
  });

  test('concurrent creates and deletes: every campaign written has its template, or the delete was refused', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const t = await template();
        const [create, remove] = await Promise.all([post(await validBody({ templateId: t.id })), cloud.api('DELETE', `/v1/templates/${t.id}`)]);
        return { create: create.status, remove: remove.status, exists: (await getTemplate(services().db, cloud.seed.project_id, t.id)) !== undefined };
      }),
    );
    for (const r of rounds) {
      expect([200, 404]).toContain(r.create);
      expect([200, 409]).toContain(r.remove);
      // Exactly one of the two won: a created campaign keeps its template, a deleted template has no campaign.
      expect(r.create === 200).toBe(r.exists);
      expect(r.remove === 200).toBe(!r.exists);
    }
  });
});

describe('GET /v1/campaigns', () => {
  test('newest first, filtered by status, paged {page, per_page, total} without total_pages', async () => {
    const other = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: unique('Lists') } });
    const key = other.body.api_key as string;
    const projectId = other.body.project_id as string;
    const t = await cloud.api('POST', '/v1/templates', { key, body: { name: 'T', html: '<p/>', subject: 'S' } });
    // The project has no sending sender: its campaigns are written as the API would, to test the list alone.
    const names = ['one', 'two', 'three'];
    for (const [i, name] of names.entries()) {
      const c = { id: randomUUID(), project_id: projectId, template_id: (t.body.data as { id: string }).id, name, subject: name, status: i === 1 ? 'cancelled' : 'initializing', created_at: `2026-11-0${i + 1}T00:00:00.000Z`, total_recipients: i } as Campaign;
      expect(await putNewCampaign(services().db, c)).toBe('written');
    }
    const all = await cloud.api('GET', '/v1/campaigns?per_page=2', { key });
    expect(all.status).toBe(200);
    expect((all.body.campaigns as { name: string }[]).map((c) => c.name)).toEqual(['three', 'two']);
    expect(all.body.pagination).toEqual({ page: 1, per_page: 2, total: 3, total_is_estimate: false, next_cursor: expect.any(String) });
    const page2 = await cloud.api('GET', '/v1/campaigns?per_page=2&page=2', { key });
    expect((page2.body.campaigns as { name: string }[]).map((c) => c.name)).toEqual(['one']);
    const next = await cloud.api('GET', `/v1/campaigns?per_page=2&cursor=${(all.body.pagination as { next_cursor: string }).next_cursor}`, { key });
    expect((next.body.campaigns as { name: string }[]).map((c) => c.name)).toEqual(['one']);
    expect(next.body.pagination).toEqual({ page: 1, per_page: 2, total: 1, total_is_estimate: false, next_cursor: null });
    expectError(await cloud.api('GET', '/v1/campaigns?per_page=200&page=6', { key }), 400, "page * per_page may not exceed 1000; pass the previous page's next_cursor as cursor to read on");
    const cancelled = await cloud.api('GET', '/v1/campaigns?status=cancelled', { key });
    expect(cancelled.body).toEqual({
      campaigns: [
        { id: expect.any(String), name: 'two', subject: 'two', status: 'cancelled', created_at: '2026-11-02T00:00:00.000Z', scheduled_for: null, started_at: null, completed_at: null, total_recipients: 1, emails_sent: 0, emails_failed: 0 },
      ],
      pagination: { page: 1, per_page: 50, total: 1, total_is_estimate: false, next_cursor: null },
    });
    expectError(await cloud.api('GET', '/v1/campaigns?status=done', { key }), 400, 'status must be one of initializing, pending, processing, rate_limited, paused, completed, failed, cancelled');
    expectError(await cloud.api('GET', '/v1/campaigns?per_page=201', { key }), 400, 'per_page must be between 1 and 200');
  });
});

describe('GET /v1/campaigns/:id', () => {
  test('the summary and metrics from the counters: opened is human opens, bounced is hard bounces', async () => {
    const campaign = await created();
    const { CampaignCounterBatch } = await import('../../shared/marketing/campaigns/campaign-counters');
    const counters = new CampaignCounterBatch(() => 3);
    for (const [field, count] of Object.entries({ sent: 10, failed: 1, delivered: 9, opened: 4, machine_opened: 3, clicked: 2, hard_bounced: 1, soft_bounced: 5, complained: 1 })) {
      counters.add(campaign.id as string, field as never, count);
    }
    await counters.flush(services().db);
    const res = await cloud.api('GET', `/v1/campaigns/${campaign.id}`);
    expect(res.status).toBe(200);
    expect(res.body.campaign).toMatchObject({ id: campaign.id, status: 'initializing', emails_sent: 10, emails_failed: 1 });
    expect(res.body.metrics).toEqual({ sent: 10, delivered: 9, opened: 4, clicked: 2, bounced: 1, complained: 1 });
  });

  test("unknown, malformed and another project's ids are 404 NOT_FOUND", async () => {
    const campaign = await created();
    const other = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: unique('Tenant') } });
    const key = other.body.api_key as string;
    for (const path of [`/v1/campaigns/${campaign.id}`, `/v1/campaigns/${randomUUID()}`, '/v1/campaigns/not-an-id']) expectError(await cloud.api('GET', path, { key }), 404, 'NOT_FOUND');
    for (const action of ['cancel', 'pause', 'resume']) expectError(await cloud.api('POST', `/v1/campaigns/${campaign.id}/${action}`, { key }), 404, 'NOT_FOUND');
    expect((await getCampaign(services().db, campaign.id as string, true))!.status).toBe('initializing');
  });

  test('a campaign still initializing two minutes after creation gets its init queued again', async () => {
    overrideServices({ clock: fixedClock('2026-11-24T10:00:00.000Z') });
    const campaign = await created();
    queued = [];
    expect((await cloud.api('GET', `/v1/campaigns/${campaign.id}`)).status).toBe(200);
    expect(queued).toEqual([]);
    overrideServices({ clock: fixedClock('2026-11-24T10:02:01.000Z') });
    expect((await cloud.api('GET', `/v1/campaigns/${campaign.id}`)).status).toBe(200);
    expect(queued.map((m) => m.body.kind)).toEqual(['init']);
  });
});

describe('cancel, pause and resume', () => {
  const action = (id: unknown, what: string) => cloud.api('POST', `/v1/campaigns/${id}/${what}`);
  /** Puts a campaign in a state, whichever moves would lead there (the gateway makes declared moves only). */
  const setStatus = async (id: unknown, status: string, extra: Record<string, unknown> = {}) => {
    const fields = { status, updated_at: new Date().toISOString(), ...extra };
    const names = Object.fromEntries(Object.keys(fields).map((f, i) => [`#f${i}`, f]));
    const values = Object.fromEntries(Object.values(fields).map((v, i) => [`:v${i}`, v]));
    await services().db.doc.send(
      new UpdateCommand({
        TableName: services().db.tableName,
        Key: campaignKey(id as string),
        UpdateExpression: `SET ${Object.keys(names).map((n, i) => `${n} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  };

  test.each(['initializing', 'pending', 'processing', 'rate_limited', 'paused'])('cancel from %s: {id, status: cancelled}', async (status) => {
    const campaign = await created();
    if (status !== 'initializing') await setStatus(campaign.id, status, status === 'paused' ? { pause: { reason: 'manual', at: new Date().toISOString() } } : {});
    const res = await action(campaign.id, 'cancel');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: campaign.id, status: 'cancelled' });
    expect((await getCampaign(services().db, campaign.id as string, true))!.status).toBe('cancelled');
  });

  test.each(['completed', 'failed', 'cancelled'])('cancel of a %s campaign: 409 NOT_CANCELLABLE', async (status) => {
    const campaign = await created();
    await setStatus(campaign.id, status);
    const res = await action(campaign.id, 'cancel');
    expectError(res, 409, 'NOT_CANCELLABLE');
    expect(res.body.status).toBe(status);
  });

  test('pause from processing: paused with pause {reason: manual, at}; resume: processing again, pause cleared, resume queued', async () => {
    overrideServices({ clock: fixedClock('2026-11-24T10:00:00.000Z') });
    const campaign = await created();
    await setStatus(campaign.id, 'processing', { started_at: '2026-11-24T10:00:00.000Z' });
    const paused = await action(campaign.id, 'pause');
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({ id: campaign.id, status: 'paused', pause: { reason: 'manual', at: '2026-11-24T10:00:00.000Z' } });
    queued = [];
    const resumed = await action(campaign.id, 'resume');
    expect(resumed.body).toEqual({ id: campaign.id, status: 'processing' });
    const stored = (await getCampaign(services().db, campaign.id as string, true))!;
    expect(stored.status).toBe('processing');
    expect(stored.pause).toBeUndefined();
    expect(queued).toEqual([{ name: 'campaigns', body: { v: 1, kind: 'resume', campaign_id: campaign.id, project_id: cloud.seed.project_id } }]);
  });

  test('a campaign paused before it started resumes to pending; one paused by the reputation guard resumes too', async () => {
    const campaign = await created();
    await setStatus(campaign.id, 'pending');
    expect((await action(campaign.id, 'pause')).status).toBe(200);
    expect((await action(campaign.id, 'resume')).body).toEqual({ id: campaign.id, status: 'pending' });
    const guarded = await created();
    await setStatus(guarded.id, 'paused', { started_at: new Date().toISOString(), pause: { reason: 'bounce_rate', rate: 0.06, sample: 600, at: new Date().toISOString() } });
    expect((await action(guarded.id, 'resume')).body).toEqual({ id: guarded.id, status: 'processing' });
  });

  test.each(['initializing', 'paused', 'completed', 'failed', 'cancelled'])('pause of a %s campaign: 409 NOT_PAUSABLE', async (status) => {
    const campaign = await created();
    if (status !== 'initializing') await setStatus(campaign.id, status, status === 'paused' ? { pause: { reason: 'manual', at: new Date().toISOString() } } : {});
    expectError(await action(campaign.id, 'pause'), 409, 'NOT_PAUSABLE');
  });

  test.each(['initializing', 'pending', 'processing', 'completed', 'cancelled'])('resume of a %s campaign: 409 NOT_RESUMABLE', async (status) => {
    const campaign = await created();
    if (status !== 'initializing') await setStatus(campaign.id, status);
    expectError(await action(campaign.id, 'resume'), 409, 'NOT_RESUMABLE');
  });

  test('a resume whose message cannot be queued goes back to paused and answers 500', async () => {
    const campaign = await created();
    await setStatus(campaign.id, 'paused', { started_at: new Date().toISOString(), pause: { reason: 'manual', at: '2026-11-24T10:00:00.000Z' } });
    overrideServices({ queue: recordingQueue(true) });
    expectError(await action(campaign.id, 'resume'), 500, 'Failed to resume campaign');
    const stored = (await getCampaign(services().db, campaign.id as string, true))!;
    expect(stored).toMatchObject({ status: 'paused', pause: { reason: 'manual', at: '2026-11-24T10:00:00.000Z' } });
  });
});
