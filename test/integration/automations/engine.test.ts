import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DateTime } from 'luxon';
import { upsertLeads } from '../../../shared/audience/leads/lead-upsert';
import { listSenders } from '../../../shared/identities/domains/sender-repository';
import { createTemplate } from '../../../shared/mail-pipeline/templates/template-service';
import { putNewAutomation } from '../../../shared/marketing/automations/automation-gateway';
import { getRun, putNewRun, runTimeline } from '../../../shared/marketing/automations/automation-run-gateway';
import type { Step } from '../../../shared/marketing/automations/definition';
import { runEngineMessage as runEngineMessageCode, type Engine } from '../../../shared/marketing/automations/engine';
import { sweepAutomationDue as sweepAutomationDueCode } from '../../../shared/marketing/automations/engine/due-sweep';
import { runIdOf } from '../../../shared/marketing/automations/ids';
import type { AutomationRun } from '../../../shared/marketing/automations/run';
import { AutomationCounterBatch } from '../../../shared/marketing/automations/run-counters';
import { overrideServices, services } from '../../../composition/services';
import type { Clock } from '../../../shared/platform/core/ports';
import type { Db } from '../../../shared/platform/store/client';
import { eventually } from '../support/eventually';
import { putManualAutomation } from '../support/manual-automation';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';
import { asFunctionCode } from '../../../local/iam/function-roles';

// The worker's and the job's own code, called in place of their handlers: run as their functions' roles.
const runEngineMessage = asFunctionCode('automation-engine', runEngineMessageCode);
const sweepAutomationDue = asFunctionCode('automation-sweep', sweepAutomationDueCode);

/**
 * The automation engine in the local cloud, on a clock the test moves: the welcome series (a mail,
 * two days, a second mail to whoever did not open the first), the renewal reminder's wait until
 * 09:00 in the lead's zone, and the fences that make each step happen once.
 */

let cloud: TestCloud;
let templateId: string;
let senderId: string;
let offset = 0;
const clock: Clock = { now: () => new Date(Date.now() + offset) };

beforeAll(async () => {
  cloud = await startTestCloud();
  overrideServices({ clock });
  const deps = services();
  templateId = (await createTemplate(deps.db, deps.clock, cloud.seed.project_id, { name: `welcome-${randomUUID()}`, subject: 'Welcome {{first_name}}', html: '<p>Hello {{first_name}} ({{event.plan}})</p>' })).id;
  senderId = (await listSenders(deps.db, cloud.seed.project_id))[0].id;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

/** An active manual automation with these steps, written as the definitions API would. */
const automationWith = (steps: Step[], reentry: 'once' | 'every_time' = 'once'): Promise<string> =>
  putManualAutomation(cloud.seed.project_id, clock.now(), steps, { reentry, exit: [{ type: 'event', event: 'purchased' }] });

async function lead(data: Record<string, unknown>): Promise<{ id: string; email: string }> {
  const { db } = services();
  const email = `auto-${randomUUID()}@example.com`;
  const { results } = await upsertLeads(db, clock, cloud.seed.project_id, [{ email, data, segmentIds: [] }]);
  return { id: results[0].id as string, email };
}

const send = (id: string, next: string | null): Step => ({ id, type: 'send_email', template_id: templateId, sender_profile_id: senderId, email_type: 'marketing', next });

/** The automation's only run, once it exists (through the API). */
async function onlyRun(automationId: string, until: (run: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return eventually(`a run of ${automationId} that matches`, async () => {
    const res = await cloud.api('GET', `/v1/automations/${automationId}/runs`);
    expect(res.status).toBe(200);
    const runs = res.body.data as Record<string, unknown>[];
    return runs.length === 1 && until(runs[0]) ? runs[0] : undefined;
  });
}

async function activitiesOf(runId: string): Promise<Record<string, unknown>[]> {
  const res = await cloud.api('GET', `/v1/activity?automation_run_id=${runId}`);
  expect(res.status).toBe(200);
  return res.body.data as Record<string, unknown>[];
}

describe('the welcome series: a mail, two days, a second mail to whoever did not open the first', () => {
  it('sends the first mail at enrolment, waits two days in the due index, then sends the second', async () => {
    const automationId = await automationWith([
      send('welcome', 'wait-2-days'),
      { id: 'wait-2-days', type: 'wait', duration: { days: 2 }, next: 'opened-welcome' },
      { id: 'opened-welcome', type: 'condition', condition: { opened: 'welcome' }, yes: null, no: 'second' },
      send('second', null),
    ]);
    const ada = await lead({ first_name: 'Ada' });
    const enrolled = await cloud.api('POST', `/v1/automations/${automationId}/enroll`, { body: { lead_ids: [ada.id], emails: ['nobody@example.com'], properties: { plan: 'pro' } } });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body).toEqual({ success: true, enrolled: 1, already_enrolled: 0, not_found: ['nobody@example.com'], not_eligible: 0 });

    const waiting = await onlyRun(automationId, (run) => run.state === 'waiting');
    expect(waiting).toMatchObject({ step: 'wait-2-days', lead_id: ada.id, email: ada.email });
    const first = await eventually('the first mail in the activity', async () => ((await activitiesOf(String(waiting.id))).length === 1 ? activitiesOf(String(waiting.id)) : undefined));
    expect(first[0]).toMatchObject({ automation_run_id: waiting.id, recipient_primary: ada.email });
    const mail = await eventually('the first mail in the outbox', async () => (await cloud.outbox()).find((m) => m.destination.to.includes(ada.email)));
    expect(mail.subject).toBe('Welcome Ada');
    expect(mail.body.html).toContain('Hello Ada (pro)');

    // Not a minute early: the sweep leaves it be.
    await sweepAutomationDue(services());
    await cloud.settled();
    expect((await activitiesOf(String(waiting.id))).length).toBe(1);

    offset += 2 * 86_400_000 + 60_000;
    await sweepAutomationDue(services());
    const done = await onlyRun(automationId, (run) => run.state === 'completed');
    expect(done).toMatchObject({ end_reason: 'completed', due_at: null });
    const mails = await eventually('both mails', async () => {
      const found = await activitiesOf(String(done.id));
      return found.length === 2 ? found : undefined;
    });
    expect(mails.map((m) => m.automation_run_id)).toEqual([done.id, done.id]);

    const timeline = await cloud.api('GET', `/v1/automation-runs/${String(done.id)}`);
    expect(timeline.status).toBe(200);
    const entries = (timeline.body.data as { timeline: Record<string, unknown>[] }).timeline;
    expect(entries.map((e) => [e.seq, e.step_id, e.outcome])).toEqual([
      [1, 'welcome', 'sent'],
      [2, 'wait-2-days', 'waiting'],
      [3, 'opened-welcome', 'branch'],
      [4, 'second', 'sent'],
    ]);
    expect(entries[2].detail).toEqual({ branch: 'no' });

    await cloud.settled();
    const stats = await cloud.api('GET', `/v1/automations/${automationId}/stats`);
    expect(stats.status).toBe(200);
    const data = stats.body.data as { runs: Record<string, number>; steps: Record<string, unknown>[] };
    expect(data.runs).toEqual({ entered: 1, active: 0, waiting: 0, completed: 1, exited: 0, failed: 0 });
    expect(data.steps.find((s) => s.id === 'welcome')).toMatchObject({ entered: 1, completed: 1, sent: 1, delivered: 1 });
    expect(data.steps.find((s) => s.id === 'wait-2-days')).toMatchObject({ entered: 1, completed: 1, waiting: 0 });
  });

  it('answers 409 INVALID_STATE to an enrolment in an automation that is not active, and 404 for another id', async () => {
    const { db } = services();
    const id = randomUUID();
    const now = clock.now().toISOString();
    await putNewAutomation(db, { id, project_id: cloud.seed.project_id, name: 'paused', status: 'paused', version: 1, trigger_type: 'manual', created_at: now, updated_at: now, revision: 2 });
    const refused = await cloud.api('POST', `/v1/automations/${id}/enroll`, { body: { emails: ['x@example.com'] } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE' });
    const missing = await cloud.api('POST', `/v1/automations/${randomUUID()}/enroll`, { body: { emails: ['x@example.com'] } });
    expect(missing.status).toBe(404);
  });
});

describe('the renewal reminder: wait until 09:00 in the lead\'s zone', () => {
  it('waits until the next 09:00 in the lead\'s time zone, then sends', async () => {
    const automationId = await automationWith([{ id: 'at-nine', type: 'wait_until', time: '09:00', next: 'remind' }, send('remind', null)]);
    // Within the hour before 09:00 in New York, the wait would be woken by a delayed message in real
    // time, which the clock jump below does not hurry (and which would hold up later tests' settling):
    // the lead then lives in Tokyo, whose next 09:00 is hours away.
    const zone = DateTime.fromJSDate(clock.now()).setZone('America/New_York').hour === 8 ? 'Asia/Tokyo' : 'America/New_York';
    const bea = await lead({ first_name: 'Bea', timezone: zone });
    expect((await cloud.api('POST', `/v1/automations/${automationId}/enroll`, { body: { emails: [bea.email] } })).status).toBe(200);
    const waiting = await onlyRun(automationId, (run) => run.state === 'waiting');
    const due = DateTime.fromISO(String(waiting.due_at)).setZone(zone);
    expect([due.hour, due.minute]).toEqual([9, 0]);
    const ahead = due.toMillis() - clock.now().getTime();
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThanOrEqual(86_400_000);

    offset += ahead + 1_000;
    await sweepAutomationDue(services());
    const done = await onlyRun(automationId, (run) => run.state === 'completed');
    await eventually('the reminder', async () => ((await activitiesOf(String(done.id))).length === 1 ? true : undefined));
  });
});

describe('the fences: each step happens at most once and never skipped', () => {
  /** An engine on the cloud's services (its own counters); `db` replaced for a crash. */
  const engine = (db?: Db): Engine => ({ deps: { ...services(), ...(db ? { db } : {}) }, tally: new AutomationCounterBatch() });

  /** A run at its first step, written as an entry would (no message queued: the test runs it). */
  async function newRun(automationId: string, who: { id: string; email: string }): Promise<AutomationRun> {
    const now = clock.now().toISOString();
    const run: AutomationRun = {
      id: runIdOf(automationId, who.id, `test:${randomUUID()}`),
      project_id: cloud.seed.project_id,
      automation_id: automationId,
      version: 1,
      lead_id: who.id,
      email: who.email,
      state: 'active',
      step: 'welcome',
      seq: 1,
      trigger: { type: 'manual', key: 'test' },
      context: {},
      sends: {},
      started_at: now,
      updated_at: now,
    };
    expect(await putNewRun(services().db, run)).toBe(true);
    return run;
  }

  const steps = (): Step[] => [send('welcome', 'long-wait'), { id: 'long-wait', type: 'wait', duration: { days: 30 }, next: null }];

  it('a redelivered step sends once, and a stale seq does nothing', async () => {
    const automationId = await automationWith(steps());
    const run = await newRun(automationId, await lead({ first_name: 'Cy' }));
    await runEngineMessage(engine(), { kind: 'step', v: 1, run_id: run.id, seq: 1 });
    await runEngineMessage(engine(), { kind: 'step', v: 1, run_id: run.id, seq: 1 });
    await runEngineMessage(engine(), { kind: 'step', v: 1, run_id: run.id, seq: 2 });
    const stored = await getRun(services().db, run.id, true);
    expect(stored).toMatchObject({ state: 'waiting', step: 'long-wait', seq: 3 });
    expect((await runTimeline(services().db, run.id)).map((e) => e.step_id)).toEqual(['welcome', 'long-wait']);
    await cloud.settled();
    expect(await activitiesOf(run.id)).toHaveLength(1);
  });

  it('a crash between the timeline entry and the run\'s move redoes the step\'s effect once', async () => {
    const automationId = await automationWith(steps());
    const run = await newRun(automationId, await lead({ first_name: 'Di' }));
    const real = services().db;
    let crashes = 1;
    const crashing: Db = {
      ...real,
      doc: {
        send: (command: unknown) => {
          const input = (command as { input?: { Key?: { pk?: string; sk?: string }; ConditionExpression?: string } }).input;
          if (command instanceof UpdateCommand && input?.Key?.sk === 'RUN' && String(input.ConditionExpression).includes('#seq') && crashes-- > 0) return Promise.reject(new Error('crash'));
          return real.doc.send(command as never);
        },
      } as unknown as Db['doc'],
    };
    await expect(runEngineMessage(engine(crashing), { kind: 'step', v: 1, run_id: run.id, seq: 1 })).rejects.toThrow('crash');
    expect(await getRun(real, run.id, true)).toMatchObject({ state: 'active', seq: 1 });
    await runEngineMessage(engine(), { kind: 'step', v: 1, run_id: run.id, seq: 1 });
    expect(await getRun(real, run.id, true)).toMatchObject({ state: 'waiting', seq: 3 });
    await cloud.settled();
    expect(await activitiesOf(run.id)).toHaveLength(1);
    expect((await cloud.outbox()).filter((m) => m.destination.to.includes(run.email))).toHaveLength(1);
  });

  it('a goal event ends the lead\'s live runs', async () => {
    const automationId = await automationWith(steps());
    const who = await lead({ first_name: 'Ed' });
    const run = await newRun(automationId, who);
    await runEngineMessage(engine(), { kind: 'step', v: 1, run_id: run.id, seq: 1 });
    await runEngineMessage(engine(), { kind: 'lead_event', v: 1, project_id: cloud.seed.project_id, lead_id: who.id, event: 'purchased', event_id: randomUUID(), properties: {} });
    expect(await getRun(services().db, run.id, true)).toMatchObject({ state: 'exited', end_reason: 'goal_event:purchased' });
  });

  it('a paused automation holds a woken run, and its release wakes it where it was', async () => {
    const automationId = await automationWith([send('welcome', null)]);
    const run = await newRun(automationId, await lead({ first_name: 'Flo' }));
    await services().db.doc.send(new UpdateCommand({ TableName: services().db.tableName, Key: { pk: `AUTO#${automationId}`, sk: 'AUTO' }, UpdateExpression: 'SET #s = :p', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':p': 'paused' } }));
    await runEngineMessage(engine(), { kind: 'step', v: 1, run_id: run.id, seq: 1 });
    expect(await runTimeline(services().db, run.id)).toEqual([]);
    await services().db.doc.send(new UpdateCommand({ TableName: services().db.tableName, Key: { pk: `AUTO#${automationId}`, sk: 'AUTO' }, UpdateExpression: 'SET #s = :p', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':p': 'active' } }));
    for (let shard = 0; shard < 16; shard++) await runEngineMessage(engine(), { kind: 'release', v: 1, automation_id: automationId, shard });
    await eventually('the released run completed', async () => ((await getRun(services().db, run.id, true))?.state === 'completed' ? true : undefined));
  });
});
