import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { services } from '../../../composition/services';
import { deleteTriggerEntry, putTriggerEntry } from '../../../shared/marketing/automations/automation-gateway';
import type { TriggerEntry } from '../../../shared/marketing/automations/automation';
import type { Trigger } from '../../../shared/marketing/automations/definition';
import type { EngineMessage } from '../../../shared/marketing/automations/engine-messages';
import { queueDateWalks as queueDateWalksCode } from '../../../shared/marketing/automations/triggers/date-walks';
import { LEAD_SHARDS } from '../../../shared/platform/store/keys';
import { workers, type WorkerName } from '../../../shared/platform/core/routes';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from '../support/test-cloud';
import { asFunctionCode } from '../../../local/iam/function-roles';

// The scheduled job's own code, called in place of its handler: run as its function's role.
const queueDateWalks = asFunctionCode('automation-dates', queueDateWalksCode);

/**
 * What happens to leads, through the API and the workers, becomes messages on the `automations`
 * queue, exactly once per occurrence with a key stable for that occurrence. The queue is read here
 * (no engine polls it), with trigger entries written straight to the project's trigger table.
 */
let cloud: TestCloud;
let sqs: SQSClient;
let n = 0;
type Data = Record<string, any>;

beforeAll(async () => {
  // Every worker but an automations engine: this file reads the automations queue itself.
  cloud = await startTestCloud({ workers: (Object.keys(workers) as WorkerName[]).filter((w) => !w.startsWith('automation')) });
  sqs = new SQSClient({});
}, CLOUD_TIMEOUT_MS);
afterAll(async () => {
  sqs?.destroy();
  await cloud?.stop();
});

async function freshProject(): Promise<{ key: string; id: string }> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Triggers ${Date.now()}-${n++}` } });
  return { key: res.body.api_key as string, id: res.body.project_id as string };
}
const api = (key: string, method: string, path: string, body?: unknown) => cloud.api(method, path, { key, body });

/** Takes (and deletes) every message on the automations queue. */
async function drainAutomations(): Promise<EngineMessage[]> {
  const out: EngineMessage[] = [];
  for (;;) {
    const res = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.automations, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (!res.Messages?.length) return out;
    for (const m of res.Messages) {
      out.push(JSON.parse(m.Body ?? '{}') as EngineMessage);
      await sqs.send(new DeleteMessageCommand({ QueueUrl: cloud.queueUrls.automations, ReceiptHandle: m.ReceiptHandle! }));
    }
  }
}

/** An active automation's trigger entry, as activation writes it. */
async function activate(projectId: string, automationId: string, trigger: Trigger, more: Partial<TriggerEntry> = {}): Promise<void> {
  await putTriggerEntry(services().db, { automation_id: automationId, project_id: projectId, version: 1, trigger, exit: [], wait_events: [], ...more });
}

const enters = (messages: EngineMessage[]) => messages.filter((m): m is Extract<EngineMessage, { kind: 'enter' }> => m.kind === 'enter');

beforeEach(async () => {
  await cloud.settled();
  await drainAutomations();
});

describe('custom events', () => {
  test('POST /v1/events enters the event trigger\'s automation (key: the event id, its properties) and tells exit rules and waits; unknown lead: lead_created too', async () => {
    const { key, id } = await freshProject();
    await activate(id, 'on-signup', { type: 'event', event: 'signed_up', conditions: [{ property: 'plan', op: 'eq', value: 'pro' }] });
    await activate(id, 'on-created', { type: 'lead_created' });
    await activate(id, 'goal', { type: 'manual' }, { exit: [{ type: 'event', event: 'purchased' }] });

    const signup = await api(key, 'POST', '/v1/events', { email: 'ada@example.com', event: 'signed_up', properties: { plan: 'pro' } });
    expect(signup.status).toBe(201);
    const leadId = signup.body.recipient_id as string;
    await api(key, 'POST', '/v1/events', { email: 'ada@example.com', event: 'signed_up', properties: { plan: 'free' } });
    const bought = await api(key, 'POST', '/v1/events', { email: 'ada@example.com', event: 'purchased', properties: { total: 10 } });

    const messages = await drainAutomations();
    expect(messages).toHaveLength(3);
    expect(messages).toEqual(
      expect.arrayContaining([
        { kind: 'enter', v: 1, project_id: id, automation_id: 'on-created', trigger: 'lead_created', entrants: [{ lead_id: leadId, email: 'ada@example.com', key: `lead:${leadId}` }] },
        { kind: 'enter', v: 1, project_id: id, automation_id: 'on-signup', trigger: 'event', entrants: [{ lead_id: leadId, email: 'ada@example.com', key: signup.body.event_id, properties: { plan: 'pro' } }] },
        { kind: 'lead_event', v: 1, project_id: id, lead_id: leadId, event: 'purchased', event_id: bought.body.event_id, properties: { total: 10 } },
      ]),
    );
  });

  test('POST /v1/events/bulk: one entrant per event, in as few messages as fit', async () => {
    const { key, id } = await freshProject();
    await activate(id, 'views', { type: 'event', event: 'view' });
    const events = Array.from({ length: 150 }, (_, i) => ({ email: `v${i % 30}@example.com`, event: 'view', properties: { i } }));
    expect((await api(key, 'POST', '/v1/events/bulk', { events })).status).toBe(201);
    const messages = enters(await drainAutomations());
    expect(messages.map((m) => m.entrants.length).sort()).toEqual([100, 50]);
    const keys = messages.flatMap((m) => m.entrants.map((e) => e.key));
    expect(new Set(keys).size).toBe(150);
  });

  test('a project whose automations listen to nothing that happened: nothing is queued', async () => {
    const { key, id } = await freshProject();
    await activate(id, 'vip', { type: 'tag_added', tag: 'vip' });
    await api(key, 'POST', '/v1/events', { email: 'quiet@example.com', event: 'viewed' });
    await api(key, 'POST', '/v1/leads', { email: 'quiet@example.com', data: { _tags: ['beta'] } });
    expect(await drainAutomations()).toEqual([]);
  });

  test('a paused automation (its entry deleted) no longer enters leads', async () => {
    const { key, id } = await freshProject();
    await activate(id, 'a1', { type: 'event', event: 'ping' });
    await deleteTriggerEntry(services().db, id, 'a1');
    await api(key, 'POST', '/v1/events', { email: 'p@example.com', event: 'ping' });
    expect(await drainAutomations()).toEqual([]);
  });
});

describe('leads and tags', () => {
  test('a lead created through POST /v1/leads enters once; upserting it again does not', async () => {
    const { key, id } = await freshProject();
    await activate(id, 'welcome', { type: 'lead_created' });
    const first = await api(key, 'POST', '/v1/leads', { leads: [{ email: 'a@example.com' }, { email: 'b@example.com' }] });
    expect(first.status).toBe(201);
    await api(key, 'POST', '/v1/leads', { email: 'a@example.com', data: { plan: 'pro' } });
    const messages = enters(await drainAutomations());
    const ids = (first.body.leads as Data[]).map((l) => l.id as string);
    expect(messages.flatMap((m) => m.entrants.map((e) => e.key)).sort()).toEqual(ids.map((l) => `lead:${l}`).sort());
  });

  test('a tag newly added (POST tags, an upsert) enters the tag trigger once; a tag already there does not', async () => {
    const { key, id } = await freshProject();
    await activate(id, 'vip', { type: 'tag_added', tag: 'vip' });
    await api(key, 'POST', '/v1/leads', { email: 't@example.com' });
    expect((await api(key, 'POST', '/v1/leads/t%40example.com/tags', { tags: ['vip', 'beta'] })).status).toBe(200);
    await api(key, 'POST', '/v1/leads/t%40example.com/tags', { tags: ['vip'] });
    await api(key, 'POST', '/v1/leads', { email: 't@example.com', data: { _tags: ['vip'] } });
    const once = enters(await drainAutomations());
    expect(once).toHaveLength(1);
    expect(once[0].entrants).toEqual([{ lead_id: expect.any(String), email: 't@example.com', key: expect.stringMatching(/^tag:vip:\d+$/) }]);

    await api(key, 'DELETE', '/v1/leads/t%40example.com/tags', { tags: ['vip'] });
    await api(key, 'POST', '/v1/leads', { email: 't@example.com', data: { _tags: ['vip'] } });
    const again = enters(await drainAutomations());
    expect(again).toHaveLength(1);
    expect(again[0].entrants[0].key).not.toBe(once[0].entrants[0].key);
  });
});

describe('static segment memberships', () => {
  test('added: segment_entered for its trigger; removed: segment_left for its exit rule; each once', async () => {
    const { key, id } = await freshProject();
    const segmentId = ((await api(key, 'POST', '/v1/segments', { name: 'Members' })).body.segment as Data).id as string;
    await activate(id, 'joined', { type: 'segment_entered', segment_id: segmentId });
    await activate(id, 'left', { type: 'manual' }, { exit: [{ type: 'segment_left', segment_id: segmentId }] });
    const leadId = ((await api(key, 'POST', '/v1/leads', { email: 'm@example.com' })).body.leads as Data[])[0].id as string;

    expect((await api(key, 'POST', `/v1/leads/${leadId}/segments`, { segment_ids: [segmentId] })).status).toBeLessThan(300);
    await api(key, 'POST', `/v1/leads/${leadId}/segments`, { segment_ids: [segmentId] });
    const added = await drainAutomations();
    expect(added).toEqual([
      { kind: 'enter', v: 1, project_id: id, automation_id: 'joined', trigger: 'segment_entered', entrants: [{ lead_id: leadId, email: 'm@example.com', key: expect.stringMatching(new RegExp(`^segment:${segmentId}:entered:`)) }] },
    ]);

    expect((await api(key, 'DELETE', `/v1/leads/${leadId}/segments/${segmentId}`)).status).toBeLessThan(300);
    expect(await drainAutomations()).toEqual([{ kind: 'segment_left', v: 1, project_id: id, lead_ids: [leadId], segment_id: segmentId }]);

    // Joining through an upsert's segment_ids enters again, with a key of its own.
    await api(key, 'POST', '/v1/leads', { email: 'm@example.com', segment_ids: [segmentId] });
    const rejoined = enters(await drainAutomations());
    expect(rejoined).toHaveLength(1);
    expect(rejoined[0].entrants[0].key).not.toBe((added[0] as Extract<EngineMessage, { kind: 'enter' }>).entrants[0].key);
  });
});

describe('imports', () => {
  test('an import\'s new leads enter the lead_created trigger once each', async () => {
    const { key, id } = await freshProject();
    await activate(id, 'welcome', { type: 'lead_created' });
    const content = ['email,plan', ...Array.from({ length: 120 }, (_, i) => `imp${i}@example.com,pro`)].join('\n');
    const created = await api(key, 'POST', '/v1/leads/imports', { format: 'csv', content });
    expect(created.status).toBe(201);
    await cloud.settled();
    const keys = enters(await drainAutomations()).flatMap((m) => m.entrants.map((e) => e.email));
    expect(keys.sort()).toEqual(Array.from({ length: 120 }, (_, i) => `imp${i}@example.com`).sort());
  });
});

describe('date triggers: the daily walk', () => {
  test('queues one date_walk per lead shard for the next UTC day, once per day, and none for a paused automation', async () => {
    const { id } = await freshProject();
    const trigger: Trigger = { type: 'date', attribute: 'renewal_date', offset_days: -3, at: '09:00', yearly: false };
    await activate(id, `dates-${id}`, trigger);
    await activate(id, `paused-${id}`, trigger);
    await deleteTriggerEntry(services().db, id, `paused-${id}`);
    const at = (iso: string) => ({ ...services(), clock: { now: () => new Date(iso) } });

    await queueDateWalks(at('2031-03-04T00:10:00Z'));
    await queueDateWalks(at('2031-03-04T01:10:00Z'));
    await queueDateWalks(at('2031-03-04T23:59:00Z'));
    const mine = (messages: EngineMessage[]) => messages.filter((m) => m.kind === 'date_walk' && m.automation_id.endsWith(id)) as Extract<EngineMessage, { kind: 'date_walk' }>[];
    const first = mine(await drainAutomations());
    expect(first).toHaveLength(LEAD_SHARDS);
    expect(first.map((m) => m.shard).sort((a, b) => a - b)).toEqual(Array.from({ length: LEAD_SHARDS }, (_, s) => s));
    expect(new Set(first.map((m) => `${m.automation_id} ${m.day}`))).toEqual(new Set([`dates-${id} 2031-03-05`]));

    await queueDateWalks(at('2031-03-05T00:05:00Z'));
    expect(new Set(mine(await drainAutomations()).map((m) => m.day))).toEqual(new Set(['2031-03-06']));
    // An hour that comes late (an earlier day) walks nothing again.
    await queueDateWalks(at('2031-03-04T12:00:00Z'));
    expect(mine(await drainAutomations())).toEqual([]);
  });
});
