import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { overrideServices, services, type Services } from '../../composition/services';
import { putDomain } from '../../shared/identities/domains/domain-repository';
import { MailerError, type Mailer } from '../../shared/platform/core/ports';
import { createProject } from '../../shared/platform/projects/project-service';
import { getProject, setProjectMonthlyQuota, updateProjectFields } from '../../shared/platform/projects/project-repository';
import { monthOf } from '../../shared/mail-pipeline/quota/monthly-quota';
import { reserveMonthlySend } from '../../shared/mail-pipeline/quota/send-quota';
import { getMonthlyUsage, reserveSend } from '../../shared/mail-pipeline/quota/usage-repository';
import { MONTHLY_USAGE_SHARDS, monthlyUsageKey } from '../../shared/platform/store/keys';
import { CLOUD_TIMEOUT_MS, WORKERS_EXCEPT_FANOUT, sendBody, startTestCloud, drainEvents, type TestCloud } from './support/test-cloud';

/**
 * The monthly send quota (spec part 8; part 3 "quota used up"; part 6 email.failed `quota_exceeded`),
 * end to end: POST /v1/send-email, the send worker, the counter in DynamoDB Local, the SES outbox and
 * the events queue (read here directly, so the webhook fan-out does not run).
 */

// Each test waits for the worker several times over.
jest.setTimeout(30_000);

let cloud: TestCloud;
let realServices: Services;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: WORKERS_EXCEPT_FANOUT });
  realServices = services();
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  await cloud?.stop();
});
afterEach(() => overrideServices(realServices));

const db = () => services().db;
const thisMonth = () => monthOf(new Date());
/** Every shard of a project's counter for a month, as stored (undefined where none was written). */
const usageShards = async (projectId: string, month: string) =>
  Promise.all(
    Array.from({ length: MONTHLY_USAGE_SHARDS }, async (_, shard) => (await db().doc.send(new GetCommand({ TableName: db().tableName, Key: monthlyUsageKey(projectId, month, shard), ConsistentRead: true }))).Item),
  );
const finished = (a: Record<string, unknown>) => !['queued', 'retrying'].includes(a.current_status as string);
const wentOut = (status: unknown) => status === 'sent' || status === 'delivered';

/** Sends through the API and waits until the worker is done with the activity. */
async function sendAndSettle(key: string, overrides: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await cloud.api('POST', '/v1/send-email', { key, body: sendBody(cloud, overrides) });
  expect(res.status).toBe(200);
  return cloud.waitForActivity(res.body.email_id as string, key, finished);
}

async function outboxCount(subject: string): Promise<number> {
  return (await cloud.outbox()).filter((m) => m.subject === subject).length;
}

/** A new project of the seeded organization with a verified domain of its own. */
async function freshProject(name: string): Promise<{ id: string; key: string; sender: string }> {
  const { project, liveKey } = await createProject(db(), services().clock, { organizationId: cloud.seed.organization_id, name });
  const domain = `${project.slug}.example.org`;
  const now = new Date().toISOString();
  await putDomain(db(), { project_id: project.id, domain, identity_id: 'i', verification_status: 'verified', can_send: true, created_at: now, updated_at: now });
  return { id: project.id, key: liveKey, sender: `news@${domain}` };
}

describe('The monthly quota at its boundary (seeded project, quota 3)', () => {
  const subject = `quota-boundary-${Date.now()}`;
  let projectId: string;

  beforeAll(async () => {
    projectId = cloud.seed.project_id;
    // A webhook URL, so that the project's events are published to the events queue.
    await updateProjectFields(db(), projectId, { webhook_url: 'https://hooks.example.com/quota' });
    expect((await setProjectMonthlyQuota(db(), projectId, 3))?.monthly_quota).toBe(3);
  });

  it('sends 2 live and 1 test mail: all go out, and all three count', async () => {
    const sent = [
      await sendAndSettle(cloud.seed.live_key, { subject }),
      await sendAndSettle(cloud.seed.live_key, { subject }),
      await sendAndSettle(cloud.seed.test_key, { subject }),
    ];
    expect(sent.map((a) => wentOut(a.current_status))).toEqual([true, true, true]);
    expect(sent[2].is_test).toBe(true);
    expect(await getMonthlyUsage(db(), projectId, thisMonth())).toBe(3);
    expect(await outboxCount(subject)).toBe(3);
  });

  it('fails the 4th with quota_exceeded: nothing goes out, email.failed is published once', async () => {
    await drainEvents(cloud);
    const fourth = await sendAndSettle(cloud.seed.live_key, { subject });
    expect(fourth).toMatchObject({
      current_status: 'failed',
      error_code: 'quota_exceeded',
      error_message: `Monthly quota of 3 emails reached for ${thisMonth()}`,
      message_id: null,
    });
    expect(await outboxCount(subject)).toBe(3);
    expect(await getMonthlyUsage(db(), projectId, thisMonth())).toBe(3);

    const failed = (await drainEvents(cloud)).filter((e) => e.event === 'email.failed' && e.data.activity_id === fourth.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ project_id: projectId, is_test: false });
    expect(failed[0].data).toMatchObject({ error_code: 'quota_exceeded', permanent: false, message_id: null });
  });

  it('a test-key send is refused the same way', async () => {
    const refused = await sendAndSettle(cloud.seed.test_key, { subject });
    expect(refused).toMatchObject({ current_status: 'failed', error_code: 'quota_exceeded', is_test: true });
    expect(await outboxCount(subject)).toBe(3);
  });

  it('sends again once the quota is raised to 4, and then stops at 4', async () => {
    await setProjectMonthlyQuota(db(), projectId, 4);
    expect(wentOut((await sendAndSettle(cloud.seed.live_key, { subject })).current_status)).toBe(true);
    expect(await getMonthlyUsage(db(), projectId, thisMonth())).toBe(4);
    expect((await sendAndSettle(cloud.seed.live_key, { subject })).error_code).toBe('quota_exceeded');
    expect(await outboxCount(subject)).toBe(4);
  });

  it("is lifted by 'unlimited', and the counter stops moving", async () => {
    await setProjectMonthlyQuota(db(), projectId, 'unlimited');
    expect(wentOut((await sendAndSettle(cloud.seed.live_key, { subject })).current_status)).toBe(true);
    expect(await getMonthlyUsage(db(), projectId, thisMonth())).toBe(4);
    expect(await outboxCount(subject)).toBe(5);
  });
});

describe('Projects without a quota', () => {
  it('are never blocked and write no usage counter when there is no default either', async () => {
    const p = await freshProject('No quota');
    const subject = `quota-none-${Date.now()}`;
    for (let i = 0; i < 3; i++) expect(wentOut((await sendAndSettle(p.key, { subject, sender_email: p.sender })).current_status)).toBe(true);
    const shards = await usageShards(p.id, thisMonth());
    expect(shards.filter((item) => item !== undefined)).toEqual([]);
  });

  it("take the deployment default (DEFAULT_MONTHLY_QUOTA), unless set to 'unlimited'", async () => {
    overrideServices({ config: { ...realServices.config, DEFAULT_MONTHLY_QUOTA: 1 } });
    const subject = `quota-default-${Date.now()}`;
    const onDefault = await freshProject('On the default');
    expect(wentOut((await sendAndSettle(onDefault.key, { subject, sender_email: onDefault.sender })).current_status)).toBe(true);
    expect(await sendAndSettle(onDefault.key, { subject, sender_email: onDefault.sender })).toMatchObject({
      current_status: 'failed',
      error_code: 'quota_exceeded',
      error_message: `Monthly quota of 1 email reached for ${thisMonth()}`,
    });

    const exempt = await freshProject('Exempt');
    await setProjectMonthlyQuota(db(), exempt.id, 'unlimited');
    for (let i = 0; i < 2; i++) expect(wentOut((await sendAndSettle(exempt.key, { subject, sender_email: exempt.sender })).current_status)).toBe(true);
    expect(await outboxCount(subject)).toBe(3);
  });

  it('a quota of 0 refuses the first mail', async () => {
    const p = await freshProject('Zero');
    await setProjectMonthlyQuota(db(), p.id, 0);
    expect((await sendAndSettle(p.key, { subject: `quota-zero-${Date.now()}`, sender_email: p.sender })).error_code).toBe('quota_exceeded');
  });
});

describe('Concurrency at the boundary', () => {
  it('5 sends queued at once under a quota of 2: exactly 2 go out, 3 fail with quota_exceeded', async () => {
    const p = await freshProject('Racing');
    await setProjectMonthlyQuota(db(), p.id, 2);
    const subject = `quota-race-${Date.now()}`;
    const accepted = await Promise.all(
      Array.from({ length: 5 }, (_, i) => cloud.api('POST', '/v1/send-email', { key: p.key, body: sendBody(cloud, { subject, sender_email: p.sender, recipient_email: `r${i}@example.com` }) })),
    );
    expect(accepted.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const settled = await Promise.all(accepted.map((r) => cloud.waitForActivity(r.body.email_id as string, p.key, finished)));
    expect(settled.filter((a) => wentOut(a.current_status))).toHaveLength(2);
    expect(settled.filter((a) => a.error_code === 'quota_exceeded')).toHaveLength(3);
    expect(await getMonthlyUsage(db(), p.id, thisMonth())).toBe(2);
    expect(await outboxCount(subject)).toBe(2);
  });

  it('10 reservations at once against DynamoDB Local grant exactly the quota', async () => {
    const projectId = `race-${Date.now()}`;
    const granted = await Promise.all(Array.from({ length: 10 }, () => reserveSend(db(), projectId, '2026-11', 3, new Date())));
    expect(granted.filter((shard) => shard !== undefined)).toHaveLength(3);
    expect(await getMonthlyUsage(db(), projectId, '2026-11')).toBe(3);
  });
});

describe('Refunds and months', () => {
  it('a mail SES refuses gives its unit back', async () => {
    const p = await freshProject('Refused');
    await setProjectMonthlyQuota(db(), p.id, 1);
    const refusing: Mailer = { sendRaw: async () => Promise.reject(new MailerError('rejected', 'Email address is not verified')) };
    overrideServices({ mailer: refusing });
    expect((await sendAndSettle(p.key, { sender_email: p.sender })).error_code).toBe('rejected');
    expect(await getMonthlyUsage(db(), p.id, thisMonth())).toBe(0);
    overrideServices(realServices);
    // The unit is free again: the next mail goes out.
    expect(wentOut((await sendAndSettle(p.key, { sender_email: p.sender })).current_status)).toBe(true);
    expect(await getMonthlyUsage(db(), p.id, thisMonth())).toBe(1);
  });

  it('counts each UTC month on its own counter (fixed clock, DynamoDB Local)', async () => {
    const p = await freshProject('Months');
    const project = await setProjectMonthlyQuota(db(), p.id, 1);
    if (!project) throw new Error('project missing');
    const clock = { at: new Date('2026-11-30T23:59:59Z'), now: () => clock.at };
    const deps = { db: db(), clock, config: realServices.config };
    expect((await reserveMonthlySend(deps, project)).ok).toBe(true);
    expect((await reserveMonthlySend(deps, project)).ok).toBe(false);
    clock.at = new Date('2026-12-01T00:00:00Z');
    expect((await reserveMonthlySend(deps, project)).ok).toBe(true);
    expect(await getMonthlyUsage(db(), p.id, '2026-11')).toBe(1);
    expect(await getMonthlyUsage(db(), p.id, '2026-12')).toBe(1);
    // The counters expire on their own, about 400 days after they were first written.
    const [counter] = (await usageShards(p.id, '2026-11')).filter((item) => item !== undefined);
    expect(counter?.ttl).toBe(Math.floor(Date.parse('2026-11-30T23:59:59Z') / 1000) + 400 * 86_400);
    expect((await getProject(db(), p.id))?.monthly_quota).toBe(1);
  });
});
