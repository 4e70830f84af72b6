import { randomUUID } from 'node:crypto';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { overrideServices, services } from '../../../composition/services';
import { upsertLeads } from '../../../shared/audience/leads/lead-upsert';
import { putAutomationVersion, putNewAutomation } from '../../../shared/marketing/automations/automation-gateway';
import { getRun, putNewRun } from '../../../shared/marketing/automations/automation-run-gateway';
import { enterLeads as enterLeadsCode } from '../../../shared/marketing/automations/engine/enter';
import { sweepAutomationDue as sweepAutomationDueCode } from '../../../shared/marketing/automations/engine/due-sweep';
import { dueIndexTime, SAFETY_NET_SECONDS } from '../../../shared/marketing/automations/engine/step-queue';
import type { EngineMessage } from '../../../shared/marketing/automations/engine-messages';
import { runIdOf } from '../../../shared/marketing/automations/ids';
import type { AutomationRun } from '../../../shared/marketing/automations/run';
import { AutomationCounterBatch } from '../../../shared/marketing/automations/run-counters';
import type { Clock } from '../../../shared/platform/core/ports';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';
import { asFunctionCode } from '../../../local/iam/function-roles';

// The worker's and the job's own code, called in place of their handlers: run as their functions' roles.
const enterLeads = asFunctionCode('automation-engine', enterLeadsCode);
const sweepAutomationDue = asFunctionCode('automation-sweep', sweepAutomationDueCode);

/**
 * The minute sweep queues each due run once, however far behind the engine is, and the first sweep
 * after an outage takes everything since; an entry message past its time budget hands the rest of
 * its leads back to the queue. No worker runs here: the test reads the automations queue itself.
 */

let cloud: TestCloud;
const T0 = Date.parse('2031-06-01T10:00:00.000Z');
let now = T0;
const clock: Clock = { now: () => new Date(now) };
let sqs: SQSClient;

beforeAll(async () => {
  cloud = await startTestCloud({ workers: [] });
  overrideServices({ clock });
  sqs = new SQSClient({});
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  sqs?.destroy();
  await cloud?.stop();
});

/** The messages visible on the automations queue now, removed. */
async function queued(): Promise<EngineMessage[]> {
  const out: EngineMessage[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.automations, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) break;
    out.push(...res.Messages.map((m) => JSON.parse(m.Body ?? '{}') as EngineMessage));
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: cloud.queueUrls.automations, Entries: res.Messages.map((m, n) => ({ Id: String(n), ReceiptHandle: m.ReceiptHandle! })) }));
  }
  return out;
}

/** Wakes the sweep queued for these runs (seq 0 messages), in any order. */
const wakes = (messages: EngineMessage[], runs: string[]) => messages.filter((m) => m.kind === 'step' && m.seq === 0 && runs.includes(m.run_id)).map((m) => (m as { run_id: string }).run_id).sort();

function waitingRun(dueAt: string): AutomationRun {
  const id = randomUUID();
  const at = new Date(now).toISOString();
  return { id, project_id: cloud.seed.project_id, automation_id: randomUUID(), version: 1, lead_id: randomUUID(), email: `${id}@example.com`, state: 'waiting', step: 'wait', seq: 2, trigger: { type: 'manual', key: 'k' }, context: {}, sends: {}, due_at: dueAt, started_at: at, updated_at: at };
}

describe('the minute sweep of the due index', () => {
  test('queues a run once as it comes due, not again each minute while the engine is behind', async () => {
    await sweepAutomationDue(services());
    await queued();
    const run = waitingRun(new Date(now + 20 * 60_000).toISOString());
    await putNewRun(services().db, run, run.due_at);

    expect((await sweepAutomationDue(services())).due).toBe(0);
    now += 19 * 60_000;
    // Within the lookahead: queued once, delayed until its time.
    expect(await sweepAutomationDue(services())).toMatchObject({ due: 1, overdue: 0 });
    // The run is still due (nothing woke it): minute after minute, nothing more is queued.
    for (let i = 0; i < 3; i++) {
      now += 60_000;
      expect((await sweepAutomationDue(services())).due).toBe(0);
    }
  });

  test('after an outage, the first sweep queues every run that came due meanwhile, at once', async () => {
    const runs = [waitingRun(new Date(now + 30 * 60_000).toISOString()), waitingRun(new Date(now + 40 * 60_000).toISOString())];
    for (const run of runs) await putNewRun(services().db, run, run.due_at);
    await sweepAutomationDue(services());
    now += 2 * 3600_000;
    const result = await sweepAutomationDue(services());
    expect(result).toMatchObject({ due: 2, overdue: 2 });
    expect(wakes(await queued(), runs.map((r) => r.id))).toEqual(runs.map((r) => r.id).sort());
  });

  test('a wake a queue message carries sits in the index past the longest queue delay, ahead of the cursor', () => {
    const at = new Date(now);
    expect(dueIndexTime(new Date(now + 5 * 60_000), at)).toBe(new Date(now + SAFETY_NET_SECONDS * 1000).toISOString());
    expect(dueIndexTime(new Date(now + 2 * 86_400_000), at)).toBe(new Date(now + 2 * 86_400_000).toISOString());
  });
});

describe('an entry message past its time budget', () => {
  test('enters what it could and hands the rest back to the queue as a message of their own', async () => {
    const { db } = services();
    const automationId = randomUUID();
    const at = new Date(now).toISOString();
    const projectId = cloud.seed.project_id;
    await putNewAutomation(db, { id: automationId, project_id: projectId, name: 'budget', status: 'active', version: 1, version_used: true, trigger_type: 'manual', created_at: at, updated_at: at, activated_at: at, revision: 1 });
    await putAutomationVersion(db, { automation_id: automationId, project_id: projectId, version: 1, created_at: at, trigger: { type: 'manual' }, entry: { filter: null, reentry: 'once' }, exit: [], steps: [{ id: 'wait', type: 'wait', duration: { days: 3 }, next: null }] });
    const emails = [0, 1, 2].map((i) => `budget-${i}-${randomUUID().slice(0, 6)}@example.com`);
    const { results } = await upsertLeads(db, clock, projectId, emails.map((email) => ({ email, segmentIds: [] })));
    const entrants = results.map((r) => ({ lead_id: String(r.id), email: r.email, key: 'enroll:budget' }));
    await queued();

    const engine = { deps: services(), tally: new AutomationCounterBatch() };
    const outcome = await enterLeads(engine, { project_id: projectId, automation_id: automationId, trigger: 'manual', entrants }, 0);
    expect(outcome).toMatchObject({ entered: 1, handedBack: 2 });
    const [back] = (await queued()).filter((m) => m.kind === 'enter');
    expect(back).toMatchObject({ kind: 'enter', automation_id: automationId, entrants: entrants.slice(1) });

    // The handed-back message, delivered (twice even), enters the others once.
    for (let i = 0; i < 2; i++) await enterLeads(engine, back as Extract<EngineMessage, { kind: 'enter' }>);
    for (const entrant of entrants) expect(await getRun(db, runIdOf(automationId, entrant.lead_id, entrant.key), true)).toMatchObject({ state: 'waiting' });
  });
});
