import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../composition/services';
import { LocalDnsServer } from '../../local/emulators/dns';
import { upsertLeads } from '../../shared/audience/leads/lead-upsert';
import type { Activity, ActivityStatus } from '../../shared/mail-pipeline/activity/activity';
import { putActivitiesInBatch } from '../../shared/mail-pipeline/activity/activity-repository';
import { deferralsIn } from '../../shared/mail-pipeline/delivery/mailbox-provider-repository';
import { forgetProviders } from '../../shared/mail-pipeline/delivery/mx-cache';
import { minuteOf } from '../../shared/mail-pipeline/delivery/provider-deferrals';
import { recordDeliveryEvent } from '../../shared/mail-pipeline/delivery/record-event';
import { parseSesMessage } from '../../shared/mail-pipeline/delivery/ses-event';
import { createTemplate } from '../../shared/mail-pipeline/templates/template-service';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import { NodeDnsResolver } from '../../shared/platform/adapters/node-dns-resolver';
import { refreshConfig } from '../../shared/platform/core/config';
import { campaignCursorKey, mxCacheKey, providerPaceKey, providerRateKey } from '../../shared/platform/store/keys';
import type { Campaign } from '../../shared/marketing/campaigns/campaign';
import { getCampaign, getCursor } from '../../shared/marketing/campaigns/campaign-gateway';
import { runCampaignMessage } from '../../shared/marketing/campaigns/engine';
import { forgetProviderLevels, RECOVERY_MINUTES, type PacedPosition } from '../../shared/marketing/campaigns/provider-pacing';
import { putCampaign } from './support/campaign-item';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

/**
 * Campaigns paced per mailbox provider in the local cloud: the engine's steps run here with a fixed
 * clock (the cloud's own engine worker is off, so no real-time step races them); the fan-out, the
 * batch-send worker and the SES events run in the cloud and write the outbox.
 */

jest.setTimeout(180_000);

let cloud: TestCloud;
let dns: LocalDnsServer;
let templateId: string;
let senderId: string;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: ['batch-fanout', 'batch-send-worker', 'ses-events'] });
  dns = await LocalDnsServer.start({ port: 0, stateFile: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pacing-dns-')), 'dns.json') });
  refreshConfig({ CAMPAIGN_SEND_RATE: '2000' });
  const deps = services();
  templateId = (await createTemplate(deps.db, deps.clock, cloud.seed.project_id, { name: `t-${randomUUID()}`, subject: 'News for {{name}}', html: '<p>Hi {{name}}</p>' })).id;
  senderId = (await listSenders(deps.db, cloud.seed.project_id))[0].id;
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  refreshConfig({ PROVIDER_RATES: undefined, CAMPAIGN_SEND_RATE: undefined });
  await dns?.stop();
  await cloud?.stop();
});
beforeEach(() => {
  forgetProviders();
  forgetProviderLevels();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A minute start `n` minutes ahead: each test's budgets live in minutes no other test touches. */
const minuteAhead = (n: number) => new Date((Math.floor(Date.now() / 60_000) + n) * 60_000);

/** The services at a fixed instant, resolving MX records with this test's DNS server. */
const at = (instant: Date) => ({ ...services(), dns: new NodeDnsResolver([dns.address]), clock: { now: () => instant } });

/** Leads at the given addresses; their ids in order. */
async function leadsAt(emails: string[]): Promise<string[]> {
  const deps = services();
  const { results } = await upsertLeads(deps.db, deps.clock, cloud.seed.project_id, emails.map((email, i) => ({ email, data: { name: `Lead ${i}` }, segmentIds: [] })));
  return results.map((r) => r.id);
}

/** A pending campaign to the given lead ids, as the API writes it. */
const campaignTo = (ids: string[]): Promise<Campaign> =>
  putCampaign({ projectId: cloud.seed.project_id, templateId, senderId, ids, createdAt: new Date(Date.now() - 1000).toISOString() }, { status: 'pending', frozen_at: new Date().toISOString() });

const step = (campaign: Campaign, n: number, instant: Date, deps = at(instant)) => runCampaignMessage(deps, { v: 1, kind: 'step', campaign_id: campaign.id, project_id: campaign.project_id, step: n });

/** Mails taken from a provider's budget in the minute starting at `minute`. */
async function takenIn(provider: string, minute: Date): Promise<number> {
  const db = services().db;
  const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: providerRateKey(minute.getTime() / 1000), ConsistentRead: true }));
  return Number(out.Item?.[provider] ?? 0);
}

/** Parked recipients of a provider in a campaign's cursor. */
const parkedOf = async (campaign: Campaign, provider: string) =>
  ((await getCursor(services().db, campaign.id)).position as PacedPosition).parked?.filter((r) => r.provider === provider).reduce((n, r) => n + r.count, 0) ?? 0;

/** The outbox's mails to addresses carrying `tag`, waited for until `n` arrived. */
async function mailsTo(tag: string, n: number): Promise<string[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const mails = (await cloud.outbox()).filter((m) => m.destination.to.some((t) => t.includes(tag)));
    if (mails.length >= n || Date.now() > deadline) {
      await cloud.settled({ delayed: false });
      return (await cloud.outbox()).filter((m) => m.destination.to.some((t) => t.includes(tag))).map((m) => m.destination.to[0]);
    }
    await sleep(250);
  }
}

describe('a campaign over a mixed audience, one provider with a low limit', () => {
  it("spreads that provider's mails over minutes within its limit while the others go at once, with MX lookups cached", async () => {
    refreshConfig({ PROVIDER_RATES: '{"yahoo":2}' });
    const tag = `mix${randomUUID().slice(0, 8)}`;
    // A custom domain hosted at Office 365, known by its MX only.
    const custom = `${tag}-corp.test`;
    dns.publish(custom, 'MX', { exchange: `${tag}-corp-test.mail.protection.outlook.com`, priority: 0 });
    const emails = [
      ...Array.from({ length: 4 }, (_, i) => `${tag}-g${i}@gmail.com`),
      ...Array.from({ length: 4 }, (_, i) => `${tag}-y${i}@yahoo.com`),
      ...Array.from({ length: 2 }, (_, i) => `${tag}-o${i}@example.com`),
      `${tag}-m@${custom}`,
    ];
    const campaign = await campaignTo(await leadsAt(emails));
    const T = minuteAhead(2);
    const seconds = (s: number) => new Date(T.getTime() + s * 1000);

    // Step 0: everyone but yahoo goes; yahoo gets its share of a 10 s window (1 of 2 a minute), the other 3 are parked.
    await step(campaign, 0, T);
    expect(await getCampaign(services().db, campaign.id, true)).toMatchObject({ released: 8 });
    expect(await parkedOf(campaign, 'yahoo')).toBe(3);
    // The custom domain was looked up once and cached for a day.
    const db = services().db;
    const cached = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: mxCacheKey(custom) }));
    expect(cached.Item).toMatchObject({ provider: 'microsoft-365' });
    expect(Number(cached.Item?.ttl)).toBeGreaterThan(Date.now() / 1000 + 86_000);

    // Steps every 10 s: one more yahoo mail, then none until the next minute.
    const released: number[] = [];
    for (let n = 1; n <= 7; n++) {
      await step(campaign, n, seconds(10 * n));
      released.push((await getCampaign(services().db, campaign.id, true))!.released);
    }
    expect(released).toEqual([9, 9, 9, 9, 9, 10, 11]);
    expect(await takenIn('yahoo', T)).toBe(2);
    expect(await takenIn('yahoo', seconds(60))).toBe(2);
    expect(await getCursor(services().db, campaign.id)).toMatchObject({ exhausted: true, released: 11 });

    const sent = await mailsTo(tag, 11);
    expect(sent).toHaveLength(11);
    expect(new Set(sent).size).toBe(11);
  });
});

describe('crashes and redeliveries with parked recipients', () => {
  it('a step that crashed before its cursor save, run again, and a duplicated step send nobody twice and skip nobody', async () => {
    refreshConfig({ PROVIDER_RATES: '{"apple":1}' });
    const tag = `crash${randomUUID().slice(0, 8)}`;
    const emails = [...Array.from({ length: 3 }, (_, i) => `${tag}-a${i}@icloud.com`), ...Array.from({ length: 3 }, (_, i) => `${tag}-o${i}@example.com`)];
    const campaign = await campaignTo(await leadsAt(emails));
    const T = minuteAhead(4);

    // Run A of step 0 writes its wave (3 others and 1 apple; 2 apple parked), then dies at its cursor save.
    const deps = at(T);
    const cursor = campaignCursorKey(campaign.id);
    const send = async (command: unknown, ...rest: unknown[]) => {
      const item = command instanceof PutCommand ? command.input.Item : undefined;
      if (item?.pk === cursor.pk && item?.sk === cursor.sk) throw new Error('The Lambda died here');
      return (deps.db.doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    };
    const doc = new Proxy(deps.db.doc, { get: (target, prop, receiver) => (prop === 'send' ? send : Reflect.get(target, prop, receiver)) });
    await expect(step(campaign, 0, T, { ...deps, db: { doc, tableName: deps.db.tableName } })).rejects.toThrow('The Lambda died here');

    // The redelivery follows the written wave: the same 4, the same 2 parked.
    await step(campaign, 0, T);
    expect(await getCursor(services().db, campaign.id)).toMatchObject({ step: 1, wave: 1, released: 4 });
    expect(await parkedOf(campaign, 'apple')).toBe(2);

    // Step 1 delivered twice at once, a minute on: whichever run saves, the next steps follow the
    // wave the other may have written (its header names the position after it).
    const minute = (n: number) => new Date(T.getTime() + n * 60_000);
    await Promise.all([step(campaign, 1, minute(1)), step(campaign, 1, minute(1))]);
    for (let n = 2; n <= 6 && !(await getCursor(services().db, campaign.id)).exhausted; n++) await step(campaign, n, minute(n));
    expect(await getCursor(services().db, campaign.id)).toMatchObject({ released: 6, exhausted: true });
    for (let n = 0; n <= 6; n++) expect(await takenIn('apple', minute(n))).toBeLessThanOrEqual(1);

    const sent = await mailsTo(tag, 6);
    expect(sent.sort()).toEqual([...emails].sort());
  });
});

describe('deferrals slow their provider', () => {
  /** Campaign mail records to gmail addresses, as the fan-out writes them, already sent. */
  async function sentTo(campaignId: string, count: number): Promise<Activity[]> {
    const now = new Date().toISOString();
    const records: Activity[] = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      project_id: cloud.seed.project_id,
      created_at: now,
      updated_at: now,
      email_type: 'marketing',
      campaign_id: campaignId,
      subject: 'Earlier news',
      sender_email: 'news@example.com',
      recipient_primary: `deferred${i}-${randomUUID().slice(0, 6)}@gmail.com`,
      recipient_count: 1,
      current_status: 'sent' as ActivityStatus,
      is_test: false,
      message_id: `m-${randomUUID()}`,
      sent_at: now,
    }));
    await putActivitiesInBatch(services().db, records, Math.floor(Date.now() / 1000) + 86_400);
    return records;
  }

  /** An SES event of a mail, as SES publishes it (SNS raw delivery). */
  function sesEvent(a: Activity, kind: 'DeliveryDelay' | 'TransientBounce' | 'PermanentBounce'): string {
    const timestamp = new Date().toISOString();
    const mail = { messageId: a.message_id, timestamp, destination: [a.recipient_primary], tags: { activity_id: [a.id], project_id: [a.project_id] } };
    if (kind === 'DeliveryDelay') {
      return JSON.stringify({
        eventType: 'DeliveryDelay',
        mail,
        deliveryDelay: { timestamp, delayType: 'TransientCommunicationFailure', expirationTime: timestamp, delayedRecipients: [{ emailAddress: a.recipient_primary, status: '4.7.28', diagnosticCode: 'smtp; 421 4.7.28 unusual rate of unsolicited mail' }] },
      });
    }
    const bounceType = kind === 'TransientBounce' ? 'Transient' : 'Permanent';
    return JSON.stringify({ eventType: 'Bounce', mail, bounce: { timestamp, bounceType, bounceSubType: 'General', bouncedRecipients: [{ emailAddress: a.recipient_primary }], feedbackId: `f-${a.id}` } });
  }

  it("a burst of DeliveryDelay events and transient bounces halves that provider's pace, counted once per event; it recovers when they stop", async () => {
    refreshConfig({ PROVIDER_RATES: '{"google":60}' });
    const D = minuteAhead(8);
    // A control: a step with no deferrals behind it takes google's full share of a window, 10 of 60 a minute.
    const control = await campaignTo(await leadsAt(Array.from({ length: 12 }, (_, i) => `ctl${randomUUID().slice(0, 6)}-${i}@gmail.com`)));
    await step(control, 0, new Date(D.getTime() - 3 * 60_000));
    expect((await getCampaign(services().db, control.id, true))?.released).toBe(10);

    // Minute D: 4 delays and 2 transient bounces of campaign mail to gmail, and a permanent bounce (not a deferral).
    const earlier = await sentTo(randomUUID(), 7);
    const kinds = ['DeliveryDelay', 'DeliveryDelay', 'DeliveryDelay', 'DeliveryDelay', 'TransientBounce', 'TransientBounce', 'PermanentBounce'] as const;
    const events = earlier.map((a, i) => sesEvent(a, kinds[i]));
    const inD = { ...services(), clock: { now: () => new Date(D.getTime() + 5_000) } };
    for (const body of events) await recordDeliveryEvent(inD, parseSesMessage(body));
    // SES delivers events at least once: the same events again count nothing.
    for (const body of events) await recordDeliveryEvent(inD, parseSesMessage(body));
    expect((await deferralsIn(services().db, ['google'], minuteOf(D))).get('google')).toBe(6);

    // The next minute, google's pace is halved: 5 a window (30 a minute) instead of 10.
    const campaign = await campaignTo(await leadsAt(Array.from({ length: 12 }, (_, i) => `slow${randomUUID().slice(0, 6)}-${i}@gmail.com`)));
    const next = new Date(D.getTime() + 61_000);
    await step(campaign, 0, next);
    expect((await getCampaign(services().db, campaign.id, true))?.released).toBe(5);
    const db = services().db;
    expect((await db.doc.send(new GetCommand({ TableName: db.tableName, Key: providerPaceKey('google'), ConsistentRead: true }))).Item).toMatchObject({ level: 1, bad_minute: minuteOf(D) });
    // Another container (its own memory) reaches the same level, and records the burst no second time.
    forgetProviderLevels();
    await step(campaign, 1, new Date(next.getTime() + 10_000));
    expect((await getCampaign(services().db, campaign.id, true))?.released).toBe(10);

    // The deferrals stopped: after RECOVERY_MINUTES clean minutes the pace doubles back to the full share.
    const later = await campaignTo(await leadsAt(Array.from({ length: 12 }, (_, i) => `back${randomUUID().slice(0, 6)}-${i}@gmail.com`)));
    await step(later, 0, new Date(D.getTime() + (1 + RECOVERY_MINUTES) * 60_000 + 1_000));
    expect((await getCampaign(services().db, later.id, true))?.released).toBe(10);
  });
});
