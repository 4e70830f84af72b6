import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { upsertLeads } from '../../shared/audience/lead-upsert';
import { deleteLead } from '../../shared/audience/lead-service';
import { campaignIdsObjectKey } from '../../shared/campaigns/audience-cursor';
import type { Campaign } from '../../shared/campaigns/campaign';
import { readCampaignCounts } from '../../shared/campaigns/campaign-counters';
import { runCampaignMessage } from '../../shared/campaigns/engine';
import { enqueueCampaignMessage } from '../../shared/campaigns/engine-messages';
import { getCampaign, getCursor } from '../../shared/campaigns/engine-store';
import { refreshConfig } from '../../shared/config';
import { services } from '../../shared/container';
import { listSenders } from '../../shared/domains/sender-repository';
import { campaignKey, campaignListIndex } from '../../shared/store/keys';
import { createTemplate } from '../../shared/templates/template-service';
import type { LocalTimers } from '../../local/local-timers';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

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
async function campaignTo(ids: string[], over: Partial<Campaign> = {}): Promise<Campaign> {
  const deps = services();
  const now = new Date().toISOString();
  const id = randomUUID();
  const campaign: Campaign = {
    id,
    project_id: cloud.seed.project_id,
    mode: 'live',
    name: `c-${id}`,
    subject: 'Hello {{name}}',
    template_id: templateId,
    sender_profile_id: senderId,
    status: 'initializing',
    audience: { kind: 'ids', count: ids.length },
    frozen_at: now,
    total_recipients: ids.length,
    select_all_recipients: false,
    batch_mode: false,
    batch_interval_hours: 0,
    utm_campaign: `utm-${id.slice(0, 8)}`,
    schedule_type: 'scheduled',
    created_at: now,
    updated_at: now,
    step: 0,
    released: 0,
    name_lc: `c-${id}`,
    subject_lc: 'hello {{name}}',
    ...over,
  };
  await deps.blobs.put(campaignIdsObjectKey(campaign.project_id, id), Buffer.from(JSON.stringify(ids)));
  await deps.db.doc.send(new PutCommand({ TableName: deps.db.tableName, Item: { ...campaignKey(id), ...campaignListIndex(campaign.project_id, now, id), ...campaign } }));
  return campaign;
}

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
    const ids = await leads(tag, 300);
    const deps = services();
    await deleteLead(deps.db, cloud.seed.project_id, ids[7]);
    const campaign = await campaignTo(ids, { frozen_at: new Date(Date.now() - 1).toISOString() });
    // Created after the campaign froze its audience, though its id is in the list.
    await sleep(5);
    const late = await leads(`${tag}-late`, 1);
    await deps.blobs.put(campaignIdsObjectKey(campaign.project_id, campaign.id), Buffer.from(JSON.stringify([...ids, ...late])));

    await enqueueCampaignMessage(deps, { v: 1, kind: 'init', campaign_id: campaign.id, project_id: campaign.project_id });
    const done = await waitFor(() => getCampaign(deps.db, campaign.id), (c) => c?.status === 'completed', 50_000);
    expect(done).toMatchObject({ status: 'completed', released: 299, emails_sent: 299, emails_failed: 0 });
    expect(done?.started_at).toBeDefined();

    const mails = await mailsTo(tag);
    const addresses = mails.map((m) => m.destination.to[0]);
    expect(addresses).toHaveLength(299);
    expect(new Set(addresses).size).toBe(299);
    expect(addresses).not.toContain(`${tag}-7@example.com`);
    expect(addresses.some((a) => a.includes('-late-'))).toBe(false);
    expect((await readCampaignCounts(deps.db, campaign.id)).sent).toBe(299);
  }, 60_000);
});

describe('the engine step by step', () => {
  it('a scheduled start sets a one-time timer at scheduledFor and sends nothing before it', async () => {
    const tag = `sched-${randomUUID().slice(0, 8)}`;
    const ids = await leads(tag, 3);
    const at = new Date(Date.now() + 3 * 3600_000);
    const campaign = await campaignTo(ids, { scheduled_for: at.toISOString() });
    await runCampaignMessage(services(), { v: 1, kind: 'init', campaign_id: campaign.id, project_id: campaign.project_id });
    expect(await getCampaign(services().db, campaign.id)).toMatchObject({ status: 'pending', total_recipients: 3, step: 0 });
    expect((services().timers as LocalTimers).names()).toContain(`campaign-${campaign.id}-step-0`);
    await sleep(500);
    expect(await mailsTo(tag)).toHaveLength(0);
  });

  it('a duplicate or stale step message does nothing, and a replayed step releases the same wave', async () => {
    const tag = `fence-${randomUUID().slice(0, 8)}`;
    const ids = await leads(tag, 5);
    const campaign = await campaignTo(ids, { status: 'pending' });
    const deps = services();
    await runCampaignMessage(deps, { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    const after = await getCampaign(deps.db, campaign.id);
    expect(after).toMatchObject({ status: 'processing', step: 1, released: 5, exhausted: true });
    // The same message again: the step is taken.
    await runCampaignMessage(deps, { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    expect((await getCursor(deps.db, campaign.id)).wave).toBe(1);
    expect((await getCampaign(deps.db, campaign.id))?.released).toBe(5);
    const mails = await waitFor(() => mailsTo(tag), (m) => m.length >= 5);
    await sleep(1000);
    expect((await mailsTo(tag)).length).toBe(mails.length);
    expect(mails).toHaveLength(5);
  });

  it('a cancelled campaign releases nothing', async () => {
    const tag = `cancel-${randomUUID().slice(0, 8)}`;
    const ids = await leads(tag, 4);
    const campaign = await campaignTo(ids, { status: 'cancelled' });
    await runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: 0 });
    expect(await getCampaign(services().db, campaign.id)).toMatchObject({ status: 'cancelled', step: 0, released: 0 });
    await sleep(500);
    expect(await mailsTo(tag)).toHaveLength(0);
  });
});
