import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { overrideServices, services } from '../../../composition/services';
import { listSenders } from '../../../shared/identities/domains/sender-repository';
import { updateProjectFields } from '../../../shared/platform/projects/project-repository';
import { createProject } from '../../../shared/platform/projects/project-service';
import { sweepAutomationDue as sweepAutomationDueCode } from '../../../shared/marketing/automations/engine/due-sweep';
import { queueDateWalks as queueDateWalksCode } from '../../../shared/marketing/automations/triggers/date-walks';
import { workers, type WorkerName } from '../../../shared/platform/core/routes';
import type { Clock } from '../../../shared/platform/core/ports';
import { eventually as eventuallyWithin } from '../support/eventually';
import { CLOUD_TIMEOUT_MS, drainEvents, startTestCloud, type TestCloud } from '../support/test-cloud';
import { asFunctionCode } from '../../../local/iam/function-roles';
import { startWebhookReceiver } from '../support/webhook-receiver';

// The scheduled jobs' own code, called in place of their handlers: run as their functions' roles.
const sweepAutomationDue = asFunctionCode('automation-sweep', sweepAutomationDueCode);
const queueDateWalks = asFunctionCode('automation-dates', queueDateWalksCode);

/**
 * The two journeys a user builds first, wholly through the API as a user would: the welcome series
 * (on `signed_up`: a mail, two days, a second mail to whoever did not open the first, an exit on
 * `purchased`) and the renewal reminder (3 days before `renewal_date`, at 09:00 in the lead's zone).
 * The clock is the test's; the minute sweep and the daily date walk are called as their schedules
 * call them. The webhook fan-out does not run, so the events a deployment would post are read here.
 */

let cloud: TestCloud;
let offset = 0;
const clock: Clock = { now: () => new Date(Date.now() + offset) };
let senderId: string;

beforeAll(async () => {
  const running = (Object.keys(workers) as WorkerName[]).filter((w) => w !== 'webhook-fanout');
  cloud = await startTestCloud({ workers: running });
  overrideServices({ clock });
  senderId = (await listSenders(services().db, cloud.seed.project_id))[0].id;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** Polls until `check` answers something (20 s at most: these journeys run several workers). */
const eventually = <T>(what: string, check: () => Promise<T | undefined>) => eventuallyWithin(what, check, { timeoutMs: 20_000, everyMs: 200 });

async function ok(method: string, path: string, body?: unknown, status = 200): Promise<Record<string, any>> {
  const res = await cloud.api(method, path, body === undefined ? undefined : { body });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any>;
}

async function template(subject: string, html: string): Promise<string> {
  return (await ok('POST', '/v1/templates', { name: `${subject} ${randomUUID()}`, subject, html }, 201)).data.id;
}

/** The lead's runs of an automation, through the API. */
async function runsOf(automationId: string): Promise<Record<string, any>[]> {
  return (await ok('GET', `/v1/automations/${automationId}/runs`)).data;
}

async function runOf(automationId: string, email: string, until: (run: Record<string, any>) => boolean): Promise<Record<string, any>> {
  return eventually(`${email}'s run`, async () => (await runsOf(automationId)).find((r) => r.email === email && until(r)));
}

async function mailsOf(runId: string): Promise<Record<string, any>[]> {
  return (await ok('GET', `/v1/activity?automation_run_id=${runId}`)).data;
}

describe('the welcome series, built through the API', () => {
  test('on signed_up: a mail; two days later a second mail only to those who did not open it; purchased ends the run; suppressed mail is no webhook', async () => {
    const welcome = await template('Welcome, {{first_name}}', '<p>Hello {{first_name}}, your {{event.plan}} plan is ready.</p>');
    const nudge = await template('Did you see this, {{first_name}}?', '<p>Still there, {{first_name}}?</p>');
    const event = `signed_up_${randomUUID().slice(0, 8)}`;
    const created = await ok('POST', '/v1/automations', {
      name: 'Welcome series',
      trigger: { type: 'event', event },
      exit: [{ type: 'event', event: 'purchased' }],
      steps: [
        { id: 'welcome', type: 'send_email', template_id: welcome, sender_profile_id: senderId, next: 'wait_2_days' },
        { id: 'wait_2_days', type: 'wait', duration: { days: 2 }, next: 'opened_welcome' },
        { id: 'opened_welcome', type: 'condition', condition: { opened: 'welcome' }, yes: null, no: 'nudge' },
        { id: 'nudge', type: 'send_email', template_id: nudge, sender_profile_id: senderId },
      ],
    }, 201);
    const id = created.data.id as string;
    expect(created.data).toMatchObject({ status: 'draft', version: 1 });
    expect((await ok('POST', `/v1/automations/${id}/activate`)).data.status).toBe('active');

    const tag = randomUUID().slice(0, 8);
    const [opener, silent, buyer, suppressed] = ['opener', 'silent', 'buyer', 'suppressed'].map((who) => `${who}-${tag}@example.com`);
    await ok('POST', '/v1/suppressions', { emails: [suppressed] }, 201);
    for (const email of [opener, silent, buyer, suppressed]) {
      await ok('POST', '/v1/leads', { email, data: { first_name: email.split('-')[0] } }, 201);
      await ok('POST', '/v1/events', { email, event, properties: { plan: 'pro' } }, 201);
    }

    // Each enters and gets the first mail at once (the suppressed address gets none: its activity says so).
    for (const email of [opener, silent, buyer]) {
      await eventually(`${email}'s first mail`, async () => (await cloud.outbox()).find((m) => m.destination.to.includes(email)));
    }
    const mail = (await cloud.outbox()).find((m) => m.destination.to.includes(opener))!;
    expect(mail.subject).toBe('Welcome, opener');
    expect(mail.body.html).toContain('your pro plan is ready');
    const suppressedRun = await runOf(id, suppressed, (r) => r.state === 'waiting');
    const suppressedMail = await eventually('the suppressed activity', async () => (await mailsOf(suppressedRun.id)).find((a) => a.current_status === 'suppressed'));
    expect(suppressedMail.automation_run_id).toBe(suppressedRun.id);

    // The opener opens; the buyer buys.
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+\.gif)"/.exec(mail.body.html ?? '')?.[1];
    expect(pixel).toBeDefined();
    expect((await fetch(pixel!.replace(/^https?:\/\/[^/]+/, cloud.baseUrl), { headers: { 'user-agent': 'Mozilla/5.0 (Macintosh) Thunderbird/128.0' } })).status).toBe(200);
    await ok('POST', '/v1/events', { email: buyer, event: 'purchased' }, 201);
    const bought = await runOf(id, buyer, (r) => r.state === 'exited');
    expect(bought.end_reason).toBe('goal_event:purchased');

    // Two days on, the sweep wakes the rest.
    const openerRun = await runOf(id, opener, (r) => r.state === 'waiting');
    await eventually('the open recorded', async () => ((await mailsOf(openerRun.id))[0]?.opened_first_at ? true : undefined));
    offset += 2 * 86_400_000 + 120_000;
    await sweepAutomationDue(services());
    const silentDone = await runOf(id, silent, (r) => r.state === 'completed');
    const openerDone = await runOf(id, opener, (r) => r.state === 'completed');
    await runOf(id, suppressed, (r) => r.state === 'completed');

    expect((await mailsOf(silentDone.id)).length).toBe(2);
    const nudged = await eventually('the nudge', async () => (await cloud.outbox()).find((m) => m.destination.to.includes(silent) && m.subject === 'Did you see this, silent?'));
    expect(nudged.body.html).toContain('Still there, silent?');
    expect((await mailsOf(openerDone.id)).length).toBe(1);
    expect((await mailsOf(bought.id)).length).toBe(1);

    const timeline = (await ok('GET', `/v1/automation-runs/${openerDone.id}`)).data.timeline as Record<string, any>[];
    expect(timeline.map((e) => [e.step_id, e.outcome])).toEqual([
      ['welcome', 'sent'],
      ['wait_2_days', 'waiting'],
      ['opened_welcome', 'branch'],
    ]);
    expect(timeline[2].detail).toEqual({ branch: 'yes' });

    await cloud.settled();
    const stats = (await ok('GET', `/v1/automations/${id}/stats`)).data;
    expect(stats.runs).toMatchObject({ entered: 4, completed: 3, exited: 1, active: 0, waiting: 0 });
    // The suppressed lead's nudge entered the step but was not sent: its activity is `suppressed`.
    expect(stats.steps.find((s: Record<string, unknown>) => s.id === 'nudge')).toMatchObject({ entered: 2, sent: 1 });

    // Automation mail never posts email.suppressed or email.failed (part 6: only API sends do).
    const events = await drainEvents(cloud);
    const mine = events.filter((e) => [opener, silent, buyer, suppressed].includes(e.data?.email));
    expect(mine.filter((e) => e.event === 'email.suppressed' || e.event === 'email.failed')).toEqual([]);
  });
});

describe('the renewal reminder, built through the API', () => {
  test('three days before renewal_date, at 09:00 in the lead\'s zone, whatever the UTC hour', async () => {
    const reminder = await template('Your plan renews on {{renewal_date}}', '<p>Hi {{first_name}}, your plan renews on {{renewal_date}}.</p>');
    const created = await ok('POST', '/v1/automations', {
      name: 'Renewal reminder',
      trigger: { type: 'date', attribute: 'renewal_date', offset_days: -3, at: '09:00' },
      entry: { filter: null, reentry: 'every_time' },
      steps: [{ id: 'remind', type: 'send_email', template_id: reminder, sender_profile_id: senderId, email_type: 'transactional' }],
    }, 201);
    const id = created.data.id as string;
    await ok('POST', `/v1/automations/${id}/activate`);

    // The daily walk, shortly after midnight UTC, covers the next UTC day.
    const today = DateTime.fromJSDate(clock.now(), { zone: 'utc' }).startOf('day');
    offset += today.plus({ minutes: 10 }).toMillis() - clock.now().getTime() + 86_400_000;
    const walkDay = DateTime.fromJSDate(clock.now(), { zone: 'utc' }).startOf('day').plus({ days: 1 });
    const renewal = walkDay.plus({ days: 3 }).toISODate()!;
    const email = `renewal-${randomUUID().slice(0, 8)}@example.com`;
    await ok('POST', '/v1/leads', { email, data: { first_name: 'Grace', renewal_date: renewal, timezone: 'America/New_York' } }, 201);
    expect(await queueDateWalks(services())).toMatchObject({ day: walkDay.toISODate(), walked: 1 });

    const moment = DateTime.fromISO(`${walkDay.toISODate()}T09:00`, { zone: 'America/New_York' });
    // Entered at the walk, its first step due at the moment (the run is `active`, its step not begun).
    const waiting = await runOf(id, email, (r) => r.due_at !== null);
    expect(waiting).toMatchObject({ state: 'active', step: 'remind' });
    expect(Date.parse(waiting.due_at)).toBe(moment.toMillis());
    expect(await mailsOf(waiting.id)).toEqual([]);

    offset += moment.toMillis() - clock.now().getTime() + 30_000;
    await sweepAutomationDue(services());
    const done = await runOf(id, email, (r) => r.state === 'completed');
    const [sent] = await eventually('the reminder', async () => {
      const found = await mailsOf(done.id);
      return found.length === 1 ? found : undefined;
    });
    expect(Math.abs(Date.parse(sent.created_at) - moment.toMillis())).toBeLessThan(120_000);
    const mail = await eventually('the reminder in the outbox', async () => (await cloud.outbox()).find((m) => m.destination.to.includes(email)));
    expect(mail.subject).toBe(`Your plan renews on ${renewal}`);
  });
});

describe('a template in use by an automation step', () => {
  test('its delete answers 409 TEMPLATE_IN_USE naming the step; forced, a run reaching that step fails visibly', async () => {
    const doomed = await template('Soon gone', '<p>Hello {{first_name}}</p>');
    const created = await ok('POST', '/v1/automations', {
      name: 'Uses a template',
      trigger: { type: 'manual' },
      steps: [
        { id: 'pause_a_day', type: 'wait', duration: { days: 1 }, next: 'mail' },
        { id: 'mail', type: 'send_email', template_id: doomed, sender_profile_id: senderId },
      ],
    }, 201);
    const id = created.data.id as string;
    await ok('POST', `/v1/automations/${id}/activate`);

    const refused = await cloud.api('DELETE', `/v1/templates/${doomed}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'TEMPLATE_IN_USE', automation_nodes: [`${id}:mail`], campaigns: [] });

    const email = `doomed-${randomUUID().slice(0, 8)}@example.com`;
    await ok('POST', '/v1/leads', { email, data: { first_name: 'Lin' } }, 201);
    expect((await ok('POST', `/v1/automations/${id}/enroll`, { emails: [email] })).enrolled).toBe(1);
    await runOf(id, email, (r) => r.state === 'waiting');
    await ok('DELETE', `/v1/templates/${doomed}?force=true`);

    offset += 86_400_000 + 120_000;
    await sweepAutomationDue(services());
    const failed = await runOf(id, email, (r) => r.state === 'failed');
    expect(failed.end_reason).toBe('template_deleted');
    const timeline = (await ok('GET', `/v1/automation-runs/${failed.id}`)).data.timeline as Record<string, any>[];
    expect(timeline.at(-1)).toMatchObject({ step_id: 'mail', outcome: 'failed' });
    expect(await mailsOf(failed.id)).toEqual([]);
  });
});

describe('a dynamic segment starts and ends runs', () => {
  test('a lead the evaluation finds new in the segment enters; one it no longer finds leaves its run', async () => {
    const tag = `vip${randomUUID().slice(0, 6)}`;
    const segment = (await ok('POST', '/v1/segments', { name: `Dynamic ${tag}`, filter: { match: 'all', conditions: [{ tags: { any: [tag] } }] } }, 201)).segment;
    const evaluated = async (generation: number) =>
      eventually(`evaluation ${generation}`, async () => {
        const seg = (await ok('GET', `/v1/segments/${segment.id}`)).segment;
        return seg.evaluation?.status === 'done' && seg.evaluation.generation >= generation ? seg : undefined;
      });
    const first = await evaluated(1);
    const reminder = await template('For our VIPs', '<p>Hello</p>');
    const created = await ok('POST', '/v1/automations', {
      name: 'VIP journey',
      trigger: { type: 'segment_entered', segment_id: segment.id },
      exit: [{ type: 'segment_left', segment_id: segment.id }],
      steps: [
        { id: 'settle', type: 'wait', duration: { days: 1 }, next: 'hello' },
        { id: 'hello', type: 'send_email', template_id: reminder, sender_profile_id: senderId },
      ],
    }, 201);
    const id = created.data.id as string;
    await ok('POST', `/v1/automations/${id}/activate`);

    const email = `dyn-${randomUUID().slice(0, 8)}@example.com`;
    await ok('POST', '/v1/leads', { email, data: { first_name: 'Kim' } }, 201);
    await ok('POST', `/v1/leads/${encodeURIComponent(email)}/tags`, { tags: [tag] });
    await ok('POST', `/v1/segments/${segment.id}/evaluate`, undefined, 202);
    await evaluated(first.evaluation.generation + 1);
    const run = await runOf(id, email, (r) => r.state === 'waiting');

    await ok('DELETE', `/v1/leads/${encodeURIComponent(email)}/tags`, { tags: [tag] });
    await ok('POST', `/v1/segments/${segment.id}/evaluate`, undefined, 202);
    const left = await runOf(id, email, (r) => r.state === 'exited');
    expect(left).toMatchObject({ id: run.id, end_reason: `segment_left:${segment.id}` });
  });
});

describe('editing an active automation', () => {
  test('makes a new version for new runs; a run in flight finishes on the version it started on', async () => {
    const before = await template('Version one says hello', '<p>One</p>');
    const after = await template('Version two says hello', '<p>Two</p>');
    const definition = (templateId: string) => ({
      name: 'Versioned',
      trigger: { type: 'manual' },
      entry: { filter: null, reentry: 'every_time' },
      steps: [
        { id: 'pause', type: 'wait', duration: { days: 1 }, next: 'hello' },
        { id: 'hello', type: 'send_email', template_id: templateId, sender_profile_id: senderId },
      ],
    });
    const id = (await ok('POST', '/v1/automations', definition(before), 201)).data.id as string;
    await ok('POST', `/v1/automations/${id}/activate`);
    const early = `early-${randomUUID().slice(0, 8)}@example.com`;
    const late = `late-${randomUUID().slice(0, 8)}@example.com`;
    for (const email of [early, late]) await ok('POST', '/v1/leads', { email }, 201);
    await ok('POST', `/v1/automations/${id}/enroll`, { emails: [early] });
    const first = await runOf(id, early, (r) => r.state === 'waiting');
    expect(first.version).toBe(1);

    const edited = await ok('PUT', `/v1/automations/${id}`, definition(after));
    expect(edited.data).toMatchObject({ status: 'active', version: 2 });
    await ok('POST', `/v1/automations/${id}/enroll`, { emails: [late] });
    const second = await runOf(id, late, (r) => r.state === 'waiting');
    expect(second.version).toBe(2);

    offset += 86_400_000 + 120_000;
    await sweepAutomationDue(services());
    await runOf(id, early, (r) => r.state === 'completed');
    await runOf(id, late, (r) => r.state === 'completed');
    const subjectTo = async (email: string) => (await eventually(`${email}'s mail`, async () => (await cloud.outbox()).find((m) => m.destination.to.includes(email)))).subject;
    expect(await subjectTo(early)).toBe('Version one says hello');
    expect(await subjectTo(late)).toBe('Version two says hello');
  });
});

describe('a webhook step, built through the API', () => {
  test("posts automation.webhook to the project's webhook: the run, the step, the lead with its data, and the trigger's properties", async () => {
    const receiver = await startWebhookReceiver();
    const { posts } = receiver;
    try {
      // A project of its own, with its live webhook set before the automation names it.
      const { db } = services();
      const created = await createProject(db, clock, { organizationId: cloud.seed.organization_id, name: `Hooked ${randomUUID().slice(0, 6)}` });
      await updateProjectFields(db, created.project.id, { webhook_url: receiver.url('/crm') });
      const call = async (method: string, path: string, body: unknown, status: number) => {
        const res = await cloud.api(method, path, { key: created.liveKey, body });
        if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
        return res.body as Record<string, any>;
      };
      const event = `trial_started_${randomUUID().slice(0, 8)}`;
      const automation = await call('POST', '/v1/automations', { name: 'Tell the CRM', trigger: { type: 'event', event }, steps: [{ id: 'notify_crm', type: 'webhook', webhook_id: 'live' }] }, 201);
      const id = automation.data.id as string;
      await call('POST', `/v1/automations/${id}/activate`, undefined, 200);
      const email = `crm-${randomUUID().slice(0, 8)}@example.com`;
      const lead = await call('POST', '/v1/leads', { email, data: { first_name: 'Ada', plan: 'trial' } }, 201);
      await call('POST', '/v1/events', { email, event, properties: { source: 'pricing' } }, 201);

      const posted = await eventually('the automation.webhook post', async () => posts.find((p) => p.event === 'automation.webhook'));
      expect(posted).toEqual({
        event: 'automation.webhook',
        timestamp: expect.any(String),
        project_id: created.project.id,
        data: {
          event_id: expect.any(String),
          automation_id: id,
          run_id: expect.any(String),
          step_id: 'notify_crm',
          lead_id: lead.leads[0].id,
          email,
          lead_data: { first_name: 'Ada', plan: 'trial' },
          trigger_properties: { source: 'pricing' },
        },
      });
    } finally {
      await receiver.close();
    }
  });
});
