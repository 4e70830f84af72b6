import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { handler as sesEventsHandler } from '../../functions/ses-events/handler';
import { asFunction } from '../../local/iam/function-roles';
import { forgetReputationChecks } from '../../shared/identities/reputation/project-reputation';
import { overrideServices, services } from '../../composition/services';
import { CounterBatch } from '../../shared/identities/stats/domain-stats';
import { listSenders } from '../../shared/identities/domains/sender-repository';
import type { Campaign } from '../../shared/marketing/campaigns/campaign';
import { getCampaign } from '../../shared/marketing/campaigns/campaign-gateway';
import { runCampaignMessage } from '../../shared/marketing/campaigns/engine';
import { createTemplate } from '../../shared/mail-pipeline/templates/template-service';
import { getProject, updateProjectFields } from '../../shared/platform/projects/project-repository';
import { putCampaign } from './support/campaign-item';
import { CLOUD_TIMEOUT_MS, drainEvents, sendBody, startTestCloud, WORKERS_EXCEPT_FANOUT, type TestCloud } from './support/test-cloud';

const sesEvents = asFunction('ses-events', sesEventsHandler);

let cloud: TestCloud;
let projectId: string;
let templateId: string;
let senderId: string;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: WORKERS_EXCEPT_FANOUT });
  projectId = cloud.seed.project_id;
  const deps = services();
  templateId = (await createTemplate(deps.db, deps.clock, projectId, { name: `t-${randomUUID()}`, subject: 'News', html: '<p>Hi</p>' })).id;
  senderId = (await listSenders(deps.db, projectId))[0].id;
  // A webhook target, so that the engine publishes campaign.paused (no events worker runs here: the test reads the queue).
  await updateProjectFields(deps.db, projectId, { webhook_url: 'http://127.0.0.1:9/hooks' });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Adds to the project's live hourly counters of this hour, as the workers do. */
async function count(fields: Partial<Record<'sent' | 'bounced' | 'complained', number>>): Promise<void> {
  const batch = new CounterBatch();
  for (const [field, n] of Object.entries(fields)) batch.addProject(projectId, 'live', new Date(), field as 'sent', n);
  await batch.flush(services().db);
}

/**
 * A live mail that SES bounces permanently: sent to a quiet simulator address (SES publishes only
 * its Send), then SES's documented bounce sample for it through the SES events worker's handler.
 */
async function bounce(): Promise<void> {
  const res = await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud, { recipient_email: `quiet.${randomUUID().slice(0, 8)}@simulator.amazonses.com` }) });
  expect(res.status).toBe(200);
  const a = await cloud.waitForActivity(res.body.email_id as string, cloud.seed.live_key, (x) => x.current_status !== 'queued');
  const sample = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'ses', 'bounce.json'), 'utf8'));
  const record = sample.Message ? JSON.parse(sample.Message) : (sample.detail ?? sample);
  record.mail.tags.activity_id = [a.id];
  record.mail.tags.project_id = [projectId];
  record.mail.messageId = a.message_id;
  record.bounce.timestamp = new Date().toISOString();
  if (sample.Message) sample.Message = JSON.stringify(record);
  forgetReputationChecks();
  const event = { Records: [{ messageId: `m-${randomUUID()}`, body: JSON.stringify(sample) }] } as unknown as SQSEvent;
  expect(((await sesEvents(event)) as { batchItemFailures: unknown[] }).batchItemFailures).toEqual([]);
}

/** A live campaign to nobody, as the API writes it, processing since now. */
const campaign = (over: Partial<Campaign>): Promise<Campaign> =>
  putCampaign({ projectId, templateId, senderId, ids: [] }, { subject: 'Hello', subject_lc: 'hello', status: 'processing', audience: { kind: 'ids', count: 0 }, started_at: new Date().toISOString(), ...over });

const batch = (over: Record<string, unknown> = {}) =>
  cloud.api('POST', '/v1/send-batch', { body: { recipients: ['ada@example.com'], sender: cloud.seed.sender_email, subject: 'News', html: '<p>News</p>', ...over } });

const health = async () => {
  const res = await cloud.api('GET', '/domains/health');
  expect(res.status).toBe(200);
  return res.body.reputation as Record<string, any>;
};

const partnerProject = async () => {
  const res = await cloud.api('GET', `/v1/partner/projects/${projectId}`, { key: cloud.seed.partner_key });
  expect(res.status).toBe(200);
  return (res.body as Record<string, any>).health;
};

const resume = () => cloud.api('POST', `/v1/partner/projects/${projectId}/marketing/resume`, { key: cloud.seed.partner_key });

/** Waits until the stored project satisfies `until` (the workers pause it after their batch). */
async function projectWhen(until: (p: Awaited<ReturnType<typeof getProject>>) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const p = await getProject(services().db, projectId, true);
    if (until(p) || Date.now() > deadline) return p;
    await sleep(200);
  }
}

describe('the reputation watch', () => {
  test('a project under the warning level is not paused; /domains/health shows its rates against the levels', async () => {
    await count({ sent: 600, bounced: 12 });
    await bounce();
    await cloud.settled();
    expect((await getProject(services().db, projectId, true))?.marketing_pause).toBeUndefined();
    const reputation = await health();
    expect(reputation).toMatchObject({ marketing_paused: false, pause: null, levels: { min_sample: 500, bounce_pause: 0.04, complaint_pause: 0.0008, bounce_review: 0.05, complaint_review: 0.001 } });
    expect(reputation.window.sent).toBeGreaterThanOrEqual(601);
    expect(reputation.window.bounced).toBe(13);
  });

  test('a permanent bounce that takes the rate to 4% over 500 mails pauses the project\'s marketing, once, with a project.marketing_paused event', async () => {
    await drainEvents(cloud);
    await count({ bounced: 20 });
    await bounce();
    const paused = await projectWhen((p) => Boolean(p?.marketing_pause));
    expect(paused?.marketing_pause).toMatchObject({ reason: 'bounce_rate', threshold: 0.04, sample: 602 });
    expect(paused?.marketing_pause?.rate).toBeCloseTo(34 / 602, 5);
    await cloud.settled();
    const events = (await drainEvents(cloud)).filter((e) => e.event === 'project.marketing_paused');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ project_id: projectId, data: { reason: 'bounce_rate', threshold: 0.04, sample: 602 } });
    expect(events[0].data.message).toContain('Transactional mail still goes out');
  });

  test('a live marketing batch is refused with 409 MARKETING_PAUSED; transactional batches, dry runs, test batches and single sends go on', async () => {
    const refused = await batch({ email_type: 'marketing' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'MARKETING_PAUSED', reason: 'bounce_rate' });
    expect(refused.body.error).toContain('Marketing mail is paused');
    // A batch without email_type is marketing.
    expect((await batch()).status).toBe(409);
    expect((await batch({ email_type: 'transactional' })).status).toBe(200);
    expect((await batch({ dry_run: true })).status).toBe(200);
    expect((await cloud.api('POST', '/v1/send-batch', { key: cloud.seed.test_key, body: { recipients: ['ada@example.com'], sender: cloud.seed.sender_email, subject: 'News', html: '<p>News</p>' } })).status).toBe(200);
    expect((await cloud.api('POST', '/v1/send-email', { body: sendBody(cloud) })).status).toBe(200);
  });

  test('a live campaign pauses at its next step with reason project_paused; a test campaign goes on', async () => {
    const live = await campaign({});
    await runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: live.id, project_id: projectId, step: 0 });
    expect(await getCampaign(services().db, live.id, true)).toMatchObject({ status: 'paused', pause: { reason: 'project_paused', sample: 602 } });
    const paused = (await drainEvents(cloud)).filter((e) => e.event === 'campaign.paused' && e.data.campaign_id === live.id);
    expect(paused).toEqual([expect.objectContaining({ data: expect.objectContaining({ reason: 'project_paused', sample: 602 }) })]);
    const test = await campaign({ mode: 'test' });
    await runCampaignMessage(services(), { v: 1, kind: 'step', campaign_id: test.id, project_id: projectId, step: 0 });
    expect((await getCampaign(services().db, test.id, true))?.status).not.toBe('paused');
  });

  test('/domains/health and the partner project\'s health say marketing is paused and why', async () => {
    const reputation = await health();
    expect(reputation).toMatchObject({ marketing_paused: true, pause: { reason: 'bounce_rate', threshold: 0.04 } });
    expect(reputation.issues[0]).toContain('Marketing mail is paused');
    const overview = await partnerProject();
    expect(overview.status).not.toBe('healthy');
    expect(overview.reputation.marketing_paused).toBe(true);
    expect(overview.issues[0]).toContain('Marketing mail is paused');
  });
});

describe('POST /v1/partner/projects/{projectId}/marketing/resume', () => {
  test('resumes marketing and the campaigns that paused with the project (not one paused by its caller); the watch measures from the resume', async () => {
    const withProject = await campaign({ status: 'paused', pause: { reason: 'project_paused', rate: 0.05, sample: 602, at: new Date().toISOString() } });
    const byCaller = await campaign({ status: 'paused', pause: { reason: 'manual', at: new Date().toISOString() } });
    const res = await resume();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ project_id: projectId, marketing_paused: false, was_paused: true });
    expect(res.body.campaigns_resumed).toBeGreaterThanOrEqual(2); // this one and the live campaign of the previous describe
    expect((await getCampaign(services().db, withProject.id, true))?.status).toBe('processing');
    expect(await getCampaign(services().db, byCaller.id, true)).toMatchObject({ status: 'paused', pause: { reason: 'manual' } });

    await sleep(5_100); // the API's project cache
    expect((await batch({ email_type: 'marketing' })).status).toBe(200);
    const reputation = await health();
    expect(reputation).toMatchObject({ marketing_paused: false, pause: null, window: { sent: expect.any(Number) } });
    // The resume hour's earlier mail is the baseline: only what came after it counts.
    expect(reputation.window.bounced).toBe(0);
  });

  test('a bounce after the resume does not pause again: the sample starts over', async () => {
    await bounce();
    await cloud.settled();
    expect((await getProject(services().db, projectId, true))?.marketing_pause).toBeUndefined();
  });

  test('a repeated resume changes nothing and says so', async () => {
    const res = await resume();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ was_paused: false, campaigns_resumed: 0 });
  });

  test('another organization\'s project, or none, is a 404', async () => {
    const res = await cloud.api('POST', `/v1/partner/projects/${randomUUID()}/marketing/resume`, { key: cloud.seed.partner_key });
    expect(res.status).toBe(404);
  });
});

describe('a crash between the pause and its project.marketing_paused event', () => {
  test('leaves the pause standing unannounced; the next check publishes the event, once', async () => {
    const original = services();
    await drainEvents(cloud);
    // The publish fails as a crash right after the pause's write would leave it.
    overrideServices({ events: { publish: async (event) => (event.event === 'project.marketing_paused' ? Promise.reject(new Error('crashed')) : original.events.publish(event)) } });
    try {
      await count({ sent: 600, bounced: 30 });
      await bounce();
      const paused = await projectWhen((p) => Boolean(p?.marketing_pause));
      expect(paused?.marketing_pause).toBeDefined();
      expect(paused?.marketing_pause_announced).toBeUndefined();
    } finally {
      overrideServices({ events: original.events });
    }
    await cloud.settled();
    expect((await drainEvents(cloud)).filter((e) => e.event === 'project.marketing_paused')).toEqual([]);

    await bounce();
    const announced = await projectWhen((p) => p?.marketing_pause_announced !== undefined);
    expect(announced?.marketing_pause_announced).toBe(announced?.marketing_pause?.at);
    await bounce();
    await cloud.settled();
    const events = (await drainEvents(cloud)).filter((e) => e.event === 'project.marketing_paused');
    expect(events).toHaveLength(1);
    expect(events[0].data.paused_at).toBe(announced?.marketing_pause?.at);
  });
});

