import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { upsertLeads } from '../../shared/audience/leads/lead-upsert';
import { deleteLead } from '../../shared/audience/leads/lead-service';
import type { Campaign } from '../../shared/marketing/campaigns/campaign';
import { runCampaignMessage as runCampaignMessageCode } from '../../shared/marketing/campaigns/engine';
import { enqueueCampaignMessage } from '../../shared/marketing/campaigns/engine-messages';
import { getCampaign, getCursor, heldJobs, markRateLimited, moveCampaign, readCampaignCounts } from '../../shared/marketing/campaigns/campaign-gateway';
import { campaignContent, releaseWave, waveId } from '../../shared/marketing/campaigns/waves';
import { recipientOf } from '../../shared/marketing/campaigns/variables';
import { campaignIdsObjectKey, readAudiencePage } from '../../shared/marketing/campaigns/audience-cursor';
import { CampaignCounterBatch } from '../../shared/marketing/campaigns/campaign-counters';
import { getBatch } from '../../shared/mail-pipeline/batches/batch-repository';
import { findSenderById } from '../../shared/identities/domains/sender-service';
import { refreshConfig } from '../../shared/platform/core/config';
import { services } from '../../composition/services';
import { updateProjectFields } from '../../shared/platform/projects/project-repository';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { campaignCursorKey, campaignRateKey } from '../../shared/platform/store/keys';
import { windowOf } from '../../shared/marketing/campaigns/pacing';
import { listTemplateUsage, recordTemplateUsage } from '../../shared/mail-pipeline/templates/template-repository';
import { createTemplate } from '../../shared/mail-pipeline/templates/template-service';
import type { LocalTimers } from '../../local/local-timers';
import { putCampaign } from './support/campaign-item';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';
import { asFunctionCode } from '../../local/iam/function-roles';
import { startWebhookReceiver } from './support/webhook-receiver';

// The worker's own code, called in place of its handler: run as its function's role.
const runCampaignMessage = asFunctionCode('campaign-engine', runCampaignMessageCode);

let cloud: TestCloud;
let templateId: string;
let senderId: string;

beforeAll(async () => {
  cloud = await startTestCloud();
  // The local SES account's 50 a second would make the test wait: campaigns here may send 2,000 a second.
  refreshConfig({ CAMPAIGN_SEND_RATE: '2000' });
  const deps = services();
  templateId = (await createTemplate(deps.db, deps.clock, cloud.seed.project_id, { name: `t-${randomUUID()}`, subject: 'News for {{name}}', html: '<p>Hi {{name}} ({{utm_campaign}})</p>' })).id;
  senderId = (await listSenders(deps.db, cloud.seed.project_id))[0].id;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates `n` leads whose addresses carry `tag`; their ids in order. */
async function leads(tag: string, n: number): Promise<string[]> {
  const deps = services();
  const inputs = Array.from({ length: n }, (_, i) => ({ email: `${tag}-${i}@example.com`, data: { name: `Lead ${i}` }, segmentIds: [] }));
  const { results } = await upsertLeads(deps.db, deps.clock, cloud.seed.project_id, inputs);
  return results.map((r) => r.id);
}

/** A campaign item as the API branch writes it, in `initializing`, to the given lead ids. */
const campaignTo = (ids: string[], over: Partial<Campaign> = {}): Promise<Campaign> =>
  putCampaign({ projectId: cloud.seed.project_id, templateId, senderId, ids }, over);

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(250);
  }
}

const mailsTo = async (tag: string) => (await cloud.outbox()).filter((m) => m.destination.to.some((t) => t.includes(`${tag}-`)));

describe('a campaign end to end in the local cloud', () => {
  it('sends every lead of the frozen audience exactly once, leaves out one deleted before its turn and one created after, and completes', async () => {
    const tag = `camp-${randomUUID().slice(0, 8)}`;
    // 40 leads: the local cloud sends a few mails a second on a loaded 2-core machine; the large run is the benchmark's.
    const ids = await leads(tag, 40);
    const deps = services();
    await deleteLead(deps.db, cloud.seed.project_id, ids[7]);
    const campaign = await campaignTo(ids, { frozen_at: new Date(Date.now() - 1).toISOString() });
    // Created after the campaign froze its audience, though its id is in the list.
    await sleep(5);
    const late = await leads(`${tag}-late`, 1);
    await deps.blobs.put(campaignIdsObjectKey(campaign.project_id, campaign.id), Buffer.from(JSON.stringify([...ids, ...late])));

    await enqueueCampaignMessage(deps, { v: 1, kind: 'init', campaign_id: campaign.id, project_id: campaign.project_id });
    const done = await waitFor(() => getCampaign(deps.db, campaign.id, true), (c) => c?.status === 'completed', 80_000);
    expect(done).toMatchObject({ status: 'completed', released: 39, emails_sent: 39, emails_failed: 0 });
    expect(done?.started_at).toBeDefined();

    const mails = await mailsTo(tag);
    const addresses = mails.map((m) => m.destination.to[0]);
    expect(addresses).toHaveLength(39);
    expect(new Set(addresses).size).toBe(39);
    expect(addresses).not.toContain(`${tag}-7@example.com`);
    expect(addresses.some((a) => a.includes('-late-'))).toBe(false);
    expect((await readCampaignCounts(deps.db, campaign.id)).sent).toBe(39);
  }, 90_000);
});

describe('the engine step by step', () => {
  it('a scheduled start sets a one-time timer at scheduledFor and sends nothing before it', async () => {
    const tag = `sched-${randomUUID().slice(0, 8)}`;
    const ids = await leads(tag, 3);
    const at = new Date(Date.now() + 3 * 3600_000);
    const campaign = await campaignTo(ids, { scheduled_for: at.toISOString() });
    await runCampaignMessage(services(), { v: 1, kind: 'init', campaign_id: campaign.id, project_id: campaign.project_id });
    expect(await getCampaign(services().db, campaign.id, true)).toMatchObject({ status: 'pending', total_recipients: 3, step: 0 });
    expect((services().timers as LocalTimers).names()).toContain(`campaign-${campaign.id}-step-0`);
    await cloud.settled({ delayed: false });
    expect(await mailsTo(tag)).toHaveLength(0);
  });

  it('a duplicate or stale step message does nothing, and a replayed step releases the same wave', async () => {
    const tag = `fence-${randomUUID().slice(0, 8)}`;
    const ids = await leads(tag, 5);
    const campaign = await campaignTo(ids, { status: 'pending' });
    const deps = services();
    await runCampaignMessage(deps, { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    const after = await getCampaign(deps.db, campaign.id, true);
    expect(after).toMatchObject({ status: 'processing', step: 1, released: 5, exhausted: true });
    // The same message again: the step is taken.
    await runCampaignMessage(deps, { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    expect((await getCursor(deps.db, campaign.id)).wave).toBe(1);
    expect((await getCampaign(deps.db, campaign.id, true))?.released).toBe(5);
    const mails = await waitFor(() => mailsTo(tag), (m) => m.length >= 5);
    // Its next step waits a pacing window (a delayed message); what the two runs queued is done.
    await cloud.settled({ delayed: false });
    expect((await mailsTo(tag)).length).toBe(mails.length);
    expect(mails).toHaveLength(5);
  }, 60_000);

  it('a cancelled campaign releases nothing', async () => {
    const tag = `cancel-${randomUUID().slice(0, 8)}`;
    const ids = await leads(tag, 4);
    const campaign = await campaignTo(ids, { status: 'cancelled' });
    await runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    expect(await getCampaign(services().db, campaign.id, true)).toMatchObject({ status: 'cancelled', step: 0, released: 0 });
    await cloud.settled({ delayed: false });
    expect(await mailsTo(tag)).toHaveLength(0);
  });
});

describe('an ended campaign frees its template (the usage marker a forced template delete keeps)', () => {
  /** A campaign to `n` fresh leads whose template use is recorded, as POST /v1/campaigns records it. */
  async function usingTemplate(tag: string, over: Partial<Campaign>): Promise<Campaign> {
    const campaign = await campaignTo(await leads(tag, 2), over);
    expect(await recordTemplateUsage(services().db, campaign.project_id, templateId, 'campaign', campaign.id, new Date())).toBe(true);
    return campaign;
  }
  const marked = async (campaign: Campaign) => (await listTemplateUsage(services().db, campaign.project_id, templateId)).some((u) => u.id === campaign.id);

  it('a campaign failed because its sender profile is gone releases its marker', async () => {
    const campaign = await usingTemplate(`nosender-${randomUUID().slice(0, 8)}`, { status: 'pending', sender_profile_id: randomUUID() });
    await runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    expect(await getCampaign(services().db, campaign.id, true)).toMatchObject({ status: 'failed', failure_reason: 'The sender profile no longer exists' });
    expect(await marked(campaign)).toBe(false);
  });

  it('a campaign failed because its sender profile is gone gives back the rate it took, so the next campaign in the window still sends', async () => {
    const now = new Date();
    const windowTaken = async () => Number((await services().db.doc.send(new GetCommand({ TableName: services().db.tableName, Key: campaignRateKey(windowOf(now)) }))).Item?.taken ?? 0);
    const before = await windowTaken();
    const campaign = await campaignTo(await leads(`norate-${randomUUID().slice(0, 8)}`, 2), { status: 'pending', sender_profile_id: randomUUID() });
    await runCampaignMessage({ ...services(), clock: { now: () => now } }, { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    expect(await getCampaign(services().db, campaign.id, true)).toMatchObject({ status: 'failed' });
    expect(await windowTaken()).toBe(before);
  });

  it.each(['completed', 'cancelled', 'failed'] as const)('a %s campaign whose release crashed after its final move is freed by its next (stale) step message', async (status) => {
    const campaign = await usingTemplate(`ended-${randomUUID().slice(0, 8)}`, { status, step: 3 });
    await runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 2 });
    expect(await marked(campaign)).toBe(false);
    // Delivered again: nothing left to release, nothing changes.
    await runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 2 });
    expect(await getCampaign(services().db, campaign.id, true)).toMatchObject({ status, step: 3 });
  });
});

/** What a step does up to its wave being queued, without saving its cursor: the state a crash right after releaseWave leaves. */
async function releaseFirstWaveAndCrash(campaign: Campaign): Promise<void> {
  const deps = services();
  const sender = await findSenderById(deps, campaign.project_id, campaign.sender_profile_id);
  const page = await readAudiencePage(deps, campaign, {}, 10_000);
  await releaseWave(deps, {
    campaign,
    wave: 0,
    content: campaignContent(campaign, sender!),
    recipients: page.leads.map((lead) => recipientOf(lead, campaign.variable_config)),
    position: page.position,
    exhausted: page.exhausted,
  });
}

const step = (campaign: Campaign, n: number) => runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: n });

describe('batchMode (fixed clock)', () => {
  it('releases batchSize recipients, then records current_batch and next_batch_at and sets a one-time timer for the next batch, which releases the next batchSize', async () => {
    const tag = `batches-${randomUUID().slice(0, 8)}`;
    const campaign = await campaignTo(await leads(tag, 5), { status: 'pending', batch_mode: true, batch_size: 2, batch_interval_hours: 24, total_batches: 3, current_batch: 1 });
    const T = new Date();
    const at = (ms: number) => ({ ...services(), clock: { now: () => new Date(T.getTime() + ms) } });
    const deps = services();
    await runCampaignMessage(at(0), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    expect(await getCampaign(deps.db, campaign.id, true)).toMatchObject({ status: 'processing', released: 2, current_batch: 1, started_at: T.toISOString() });
    // The next step (queued 10 s on, run here at once): the first batch is out, the second waits a day.
    await runCampaignMessage(at(10_000), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 1 });
    const waiting = await getCampaign(deps.db, campaign.id, true);
    expect(waiting).toMatchObject({ released: 2, current_batch: 2, next_batch_at: new Date(T.getTime() + 24 * 3600_000).toISOString() });
    expect((services().timers as LocalTimers).names()).toContain(`campaign-${campaign.id}-step-${waiting!.step}`);
    // The timer fires a day later.
    await runCampaignMessage(at(24 * 3600_000), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: waiting!.step });
    expect(await getCampaign(deps.db, campaign.id, true)).toMatchObject({ released: 4, current_batch: 2 });
  }, 60_000);
});

describe('the shared rate', () => {
  it('two campaigns stepping in the same window both release: a step gives back the tokens its audience could not use', async () => {
    const first = await campaignTo(await leads(`share-a-${randomUUID().slice(0, 8)}`, 3), { status: 'pending' });
    const second = await campaignTo(await leads(`share-b-${randomUUID().slice(0, 8)}`, 3), { status: 'pending' });
    const T = new Date(Date.UTC(2031, 0, 1, 12, 0, 0));
    const at = { ...services(), clock: { now: () => T } };
    await runCampaignMessage(at, { v: 1, kind: 'step', campaign_id: first.id, project_id: first.project_id, step: 0 });
    await runCampaignMessage(at, { v: 1, kind: 'step', campaign_id: second.id, project_id: second.project_id, step: 0 });
    const deps = services();
    expect((await getCampaign(deps.db, first.id, true))?.released).toBe(3);
    expect((await getCampaign(deps.db, second.id, true))?.released).toBe(3);
  }, 60_000);
});

describe('crashes and redeliveries', () => {
  it('a step that crashed after queueing its wave and before saving its cursor, run again, releases the same wave and sends nobody twice', async () => {
    const tag = `crash-${randomUUID().slice(0, 8)}`;
    const campaign = await campaignTo(await leads(tag, 6), { status: 'pending' });
    await releaseFirstWaveAndCrash(campaign);
    await step(campaign, 0);
    const deps = services();
    expect(await getCursor(deps.db, campaign.id)).toMatchObject({ step: 1, wave: 1, released: 6, exhausted: true });
    expect(await getBatch(deps.db, waveId(campaign.id, 1))).toBeUndefined();
    await waitFor(() => mailsTo(tag), (m) => m.length >= 6);
    await cloud.settled({ delayed: false });
    const addresses = (await mailsTo(tag)).map((m) => m.destination.to[0]);
    expect(addresses).toHaveLength(6);
    expect(new Set(addresses).size).toBe(6);
  }, 60_000);
});

/**
 * The services with a table whose cursor save of step `step` waits for `release`: a run of that
 * step that stalls (a slow Lambda, a long GC pause) right before its fence while others go on.
 */
function stalledAtCursorSave(campaignId: string, step: number, clock: { now: () => Date }) {
  const deps = services();
  const cursor = campaignCursorKey(campaignId);
  let reached!: () => void;
  let release!: () => void;
  const atSave = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const send = async (command: unknown, ...rest: unknown[]) => {
    const item = command instanceof PutCommand ? command.input.Item : undefined;
    if (item?.pk === cursor.pk && item?.sk === cursor.sk && item?.step === step + 1) {
      reached();
      await released;
    }
    return (deps.db.doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
  };
  const doc = new Proxy(deps.db.doc, { get: (target, prop, receiver) => (prop === 'send' ? send : Reflect.get(target, prop, receiver)) });
  return { deps: { ...deps, clock, db: { doc, tableName: deps.db.tableName } }, atSave, release };
}

describe('the cursor fence (issue 19: a guard no derived wave id masks)', () => {
  it('a stale run of a step that saves after the next step saved is refused: the cursor never goes backwards and the campaign goes on', async () => {
    const tag = `stale-${randomUUID().slice(0, 8)}`;
    // Batch mode: step 0 releases 2, step 1 (10 s on) waits a day for the next batch, step 2 releases 2 more.
    const campaign = await campaignTo(await leads(tag, 5), { status: 'pending', batch_mode: true, batch_size: 2, batch_interval_hours: 24, total_batches: 3, current_batch: 1 });
    const T = new Date();
    const at = (ms: number) => ({ ...services(), clock: { now: () => new Date(T.getTime() + ms) } });
    const stale = stalledAtCursorSave(campaign.id, 0, { now: () => T });
    const message = (n: number) => ({ v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: n }) as const;

    // Run A of step 0 releases its wave, then stalls right before its cursor save.
    const runA = runCampaignMessage(stale.deps, message(0));
    await stale.atSave;
    // Run B (a duplicate delivery) takes step 0 to its end, and step 1 runs and saves after it.
    await runCampaignMessage(at(0), message(0));
    await runCampaignMessage(at(10_000), message(1));
    const deps = services();
    expect(await getCursor(deps.db, campaign.id)).toMatchObject({ step: 2, released: 2 });
    // A wakes up holding step 0's view of the cursor.
    stale.release();
    await runA;
    expect(await getCursor(deps.db, campaign.id)).toMatchObject({ step: 2, released: 2 });
    expect(await getCampaign(deps.db, campaign.id, true)).toMatchObject({ step: 2, released: 2, current_batch: 2 });
    // The next batch's timer fires a day later: step 2 finds the cursor where step 1 left it and releases.
    await runCampaignMessage(at(24 * 3600_000), message(2));
    expect(await getCampaign(deps.db, campaign.id, true)).toMatchObject({ step: 3, released: 4 });
    expect(await getCursor(deps.db, campaign.id)).toMatchObject({ step: 3, wave: 2, released: 4 });
  }, 60_000);
});

describe('cancel, pause and resume', () => {
  it('a wave already released when the campaign is cancelled is not sent: its mails become cancelled and are counted', async () => {
    const tag = `cutoff-${randomUUID().slice(0, 8)}`;
    const campaign = await campaignTo(await leads(tag, 7), { status: 'cancelled' });
    await releaseFirstWaveAndCrash(campaign);
    const deps = services();
    const counts = await waitFor(() => readCampaignCounts(deps.db, campaign.id), (c) => c.cancelled >= 7);
    expect(counts).toMatchObject({ cancelled: 7, sent: 0 });
    expect(await mailsTo(tag)).toHaveLength(0);
  }, 60_000);

  it('a paused campaign holds the jobs that reach the send worker; resume sends each held mail once and the campaign completes', async () => {
    const tag = `pause-${randomUUID().slice(0, 8)}`;
    const campaign = await campaignTo(await leads(tag, 20), { status: 'paused', started_at: new Date().toISOString() });
    await releaseFirstWaveAndCrash(campaign);
    const deps = services();
    const held = await waitFor(() => heldJobs(deps.db, campaign.id, 10), (h) => h.length >= 1);
    expect(held).toHaveLength(1);
    expect(await mailsTo(tag)).toHaveLength(0);

    // The API's resume: out of `paused`, then the engine's `resume` message.
    expect(await moveCampaign(deps.db, campaign.id, ['paused'], 'processing', { updated_at: new Date().toISOString() })).toBe(true);
    await runCampaignMessage(deps, { v: 1, kind: 'resume', campaign_id: campaign.id, project_id: campaign.project_id });
    expect(await heldJobs(deps.db, campaign.id, 10)).toHaveLength(0);
    const done = await waitFor(() => getCampaign(deps.db, campaign.id, true), (c) => c?.status === 'completed', 50_000);
    expect(done).toMatchObject({ status: 'completed', released: 20, emails_sent: 20 });
    const addresses = (await mailsTo(tag)).map((m) => m.destination.to[0]);
    expect(addresses).toHaveLength(20);
    expect(new Set(addresses).size).toBe(20);
  }, 80_000);
});

describe('the reputation guard', () => {
  it('pauses a campaign whose hard-bounce rate passed 5% over 500 mails, with the reason, releases nothing, and posts campaign.paused to the webhook', async () => {
    // A receiver of the project's webhook for this test (the event check of the test cloud validates what is published).
    const receiver = await startWebhookReceiver(200);
    const { posts } = receiver;
    await updateProjectFields(services().db, cloud.seed.project_id, { webhook_url: receiver.url('/hooks') });
    try {
      const tag = `guard-${randomUUID().slice(0, 8)}`;
      const campaign = await campaignTo(await leads(tag, 3), { status: 'processing' });
      const counters = new CampaignCounterBatch();
      counters.add(campaign.id, 'delivered', 470);
      counters.add(campaign.id, 'hard_bounced', 30);
      await counters.flush(services().db);
      await step(campaign, 0);
      const paused = await getCampaign(services().db, campaign.id, true);
      expect(paused).toMatchObject({ status: 'paused', released: 0, step: 0, pause: { reason: 'bounce_rate', rate: 0.06, sample: 500 } });
      expect(paused?.pause?.at).toBeDefined();
      const posted = await waitFor(async () => posts.find((p) => p.event === 'campaign.paused'), Boolean, 20_000);
      expect(posted).toEqual({
        event: 'campaign.paused',
        timestamp: paused!.pause!.at,
        project_id: cloud.seed.project_id,
        is_test: false,
        data: { campaign_id: campaign.id, name: campaign.name, reason: 'bounce_rate', rate: 0.06, sample: 500, paused_at: paused!.pause!.at },
      });
    } finally {
      await updateProjectFields(services().db, cloud.seed.project_id, { webhook_url: null });
      await receiver.close();
    }
  });
});

describe('SES throttling', () => {
  it('a throttled mail moves a running campaign to rate_limited; a step within the window keeps it so, a clean one moves it back to processing', async () => {
    const deps = services();
    const tag = `throttle-${randomUUID().slice(0, 8)}`;
    const campaign = await campaignTo(await leads(tag, 4), { status: 'processing' });
    expect(await markRateLimited(deps.db, campaign.id, new Date().toISOString())).toBe(true);
    await step(campaign, 0);
    expect(await getCampaign(deps.db, campaign.id, true)).toMatchObject({ status: 'rate_limited', step: 1, released: 4 });

    const clean = await campaignTo(await leads(`${tag}-clean`, 2), { status: 'rate_limited', throttled_at: new Date(Date.now() - 60_000).toISOString() });
    await step(clean, 0);
    expect(await getCampaign(deps.db, clean.id, true)).toMatchObject({ status: 'processing', step: 1, released: 2 });
  });
});
