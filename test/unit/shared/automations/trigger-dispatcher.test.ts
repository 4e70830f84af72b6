import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LeadSignal } from '../../../../shared/platform/core/lead-signals';
import type { Queue } from '../../../../shared/platform/core/ports';
import type { Db } from '../../../../shared/platform/store/client';
import type { TriggerEntry } from '../../../../shared/marketing/automations/automation';
import { AUTOMATION_LIMITS, type Trigger } from '../../../../shared/marketing/automations/definition';
import { engineMessageSchema, type EngineMessage } from '../../../../shared/marketing/automations/engine-messages';
import { deleteTriggerEntry, putTriggerEntry, TRIGGER_TABLE_CACHE_SECONDS } from '../../../../shared/marketing/automations/automation-gateway';
import { automationDispatcher } from '../../../../shared/marketing/automations/triggers/dispatcher';
import { ENTRANTS_PER_MESSAGE, LEAD_IDS_PER_MESSAGE } from '../../../../shared/marketing/automations/triggers/route-signals';

const PROJECT = 'p1';
const LEAD = { lead_id: 'l1', email: 'ada@example.com' };

/** A table holding one project's trigger entries, counting its queries; its own name, so no cache is shared between tests. */
function fakeTable(entries: TriggerEntry[]) {
  const table = { queries: 0, entries };
  const doc = {
    send: async (command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'QueryCommand') {
        table.queries++;
        return { Items: table.entries.map((e) => ({ pk: `AUTOTRIG#${e.project_id}`, sk: e.automation_id, ...e })) };
      }
      if (command.constructor.name === 'PutCommand' || command.constructor.name === 'DeleteCommand') return {};
      throw new Error(`unexpected ${command.constructor.name}`);
    },
  } as unknown as DynamoDBDocumentClient;
  const db: Db = { doc, tableName: `t-${randomUUID()}` };
  return { table, db };
}

/** A queue that keeps what is sent, request by request. */
function fakeQueue() {
  const requests: { queue: string; bodies: EngineMessage[] }[] = [];
  const queue: Queue = {
    send: async () => {
      throw new Error('the dispatcher sends in batches');
    },
    sendBatch: async (name, bodies) => void requests.push({ queue: name, bodies: bodies as EngineMessage[] }),
    changeVisibility: async () => undefined,
  };
  return { queue, requests, sent: () => requests.flatMap((r) => r.bodies) };
}

const entry = (automationId: string, trigger: Trigger, more: Partial<TriggerEntry> = {}): TriggerEntry => ({ automation_id: automationId, project_id: PROJECT, version: 1, trigger, exit: [], wait_events: [], ...more });

function setup(entries: TriggerEntry[], start = Date.UTC(2030, 0, 1)) {
  const { table, db } = fakeTable(entries);
  const q = fakeQueue();
  let now = start;
  const dispatcher = automationDispatcher({ db, queue: q.queue, clock: { now: () => new Date(now) } });
  return { table, db, ...q, dispatcher, advance: (ms: number) => (now += ms) };
}

const event = (name: string, properties: Record<string, unknown> = {}, key: string = randomUUID()): LeadSignal => ({ kind: 'event', ...LEAD, event: name, properties, key });

describe('the automation dispatcher: what it queues for each kind of signal', () => {
  test('an event trigger: one enter message for its automation, the entrant keyed by the event id with its properties', async () => {
    const s = setup([entry('a1', { type: 'event', event: 'signed_up', conditions: [{ property: 'plan', op: 'eq', value: 'pro' }] })]);
    await s.dispatcher.emit(PROJECT, [event('signed_up', { plan: 'pro' }, 'e1'), event('signed_up', { plan: 'free' }, 'e2'), event('logged_in', {}, 'e3')]);
    expect(s.sent()).toEqual([
      { kind: 'enter', v: 1, project_id: PROJECT, automation_id: 'a1', trigger: 'event', entrants: [{ ...LEAD, key: 'e1', properties: { plan: 'pro' } }] },
    ]);
    expect(s.requests.map((r) => r.queue)).toEqual(['automations']);
    for (const message of s.sent()) expect(engineMessageSchema.parse(message)).toEqual(message);
  });

  test('lead created, tag added and segment entered start the automations whose trigger names them', async () => {
    const s = setup([
      entry('created', { type: 'lead_created' }),
      entry('vip', { type: 'tag_added', tag: 'vip' }),
      entry('seg', { type: 'segment_entered', segment_id: 's1' }),
      entry('other-seg', { type: 'segment_entered', segment_id: 's2' }),
      entry('dates', { type: 'date', attribute: 'renewal_date', offset_days: -3, at: '09:00', yearly: false }),
      entry('manual', { type: 'manual' }),
    ]);
    await s.dispatcher.emit(PROJECT, [
      { kind: 'lead_created', ...LEAD, key: 'lead:l1' },
      { kind: 'tag_added', ...LEAD, tag: 'vip', key: 'tag:vip:3' },
      { kind: 'tag_added', ...LEAD, tag: 'beta', key: 'tag:beta:3' },
      { kind: 'segment_entered', ...LEAD, segment_id: 's1', key: 'segment:s1:entered:2030-01-01T00:00:00.000Z' },
    ]);
    expect(s.sent()).toEqual([
      { kind: 'enter', v: 1, project_id: PROJECT, automation_id: 'created', trigger: 'lead_created', entrants: [{ ...LEAD, key: 'lead:l1' }] },
      { kind: 'enter', v: 1, project_id: PROJECT, automation_id: 'vip', trigger: 'tag_added', entrants: [{ ...LEAD, key: 'tag:vip:3' }] },
      { kind: 'enter', v: 1, project_id: PROJECT, automation_id: 'seg', trigger: 'segment_entered', entrants: [{ ...LEAD, key: 'segment:s1:entered:2030-01-01T00:00:00.000Z' }] },
    ]);
  });

  test('an event an exit goal or a wait_for_event step listens for: one lead_event per occurrence, however many automations listen', async () => {
    const s = setup([
      entry('a1', { type: 'manual' }, { exit: [{ type: 'event', event: 'purchased' }] }),
      entry('a2', { type: 'manual' }, { exit: [{ type: 'event', event: 'purchased' }], wait_events: ['purchased', 'clicked_link'] }),
    ]);
    await s.dispatcher.emit(PROJECT, [event('purchased', { total: 10 }, 'e1'), event('clicked_link', {}, 'e2'), event('viewed', {}, 'e3')]);
    expect(s.sent()).toEqual([
      { kind: 'lead_event', v: 1, project_id: PROJECT, lead_id: 'l1', event: 'purchased', event_id: 'e1', properties: { total: 10 } },
      { kind: 'lead_event', v: 1, project_id: PROJECT, lead_id: 'l1', event: 'clicked_link', event_id: 'e2', properties: {} },
    ]);
  });

  test('an event that both starts an automation and ends another makes both messages', async () => {
    const s = setup([entry('start', { type: 'event', event: 'purchased' }), entry('end', { type: 'manual' }, { exit: [{ type: 'event', event: 'purchased' }] })]);
    await s.dispatcher.emit(PROJECT, [event('purchased', {}, 'e1')]);
    expect(s.sent().map((m) => m.kind)).toEqual(['enter', 'lead_event']);
  });

  test('leaving a segment an exit rule names: segment_left messages naming the leads; another segment: nothing', async () => {
    const s = setup([entry('a1', { type: 'manual' }, { exit: [{ type: 'segment_left', segment_id: 's1' }] })]);
    const left = (leadId: string, segmentId: string): LeadSignal => ({ kind: 'segment_left', lead_id: leadId, email: `${leadId}@example.com`, segment_id: segmentId, key: `segment:${segmentId}:left:g2` });
    await s.dispatcher.emit(PROJECT, [left('l1', 's1'), left('l2', 's1'), left('l3', 's2'), left('l1', 's1')]);
    expect(s.sent()).toEqual([{ kind: 'segment_left', v: 1, project_id: PROJECT, lead_ids: ['l1', 'l2'], segment_id: 's1' }]);
  });

  test('listensToSegment: true for a segment a trigger or an exit rule names, false otherwise', async () => {
    const s = setup([entry('a1', { type: 'segment_entered', segment_id: 's1' }), entry('a2', { type: 'manual' }, { exit: [{ type: 'segment_left', segment_id: 's2' }] })]);
    expect(await s.dispatcher.listensToSegment(PROJECT, 's1')).toBe(true);
    expect(await s.dispatcher.listensToSegment(PROJECT, 's2')).toBe(true);
    expect(await s.dispatcher.listensToSegment(PROJECT, 's3')).toBe(false);
  });
});

describe('the automation dispatcher: nothing listening costs no SQS request', () => {
  test('a project without active automations: no request', async () => {
    const s = setup([]);
    await s.dispatcher.emit(PROJECT, [event('signed_up'), { kind: 'lead_created', ...LEAD, key: 'lead:l1' }]);
    expect(s.requests).toEqual([]);
  });

  test('automations that listen to other things: no request', async () => {
    const s = setup([entry('a1', { type: 'tag_added', tag: 'vip' }, { exit: [{ type: 'event', event: 'purchased' }] })]);
    await s.dispatcher.emit(PROJECT, [event('signed_up'), { kind: 'tag_added', ...LEAD, tag: 'beta', key: 'tag:beta:2' }, { kind: 'segment_left', ...LEAD, segment_id: 's1', key: 'x' }]);
    expect(s.requests).toEqual([]);
  });

  test('no signals: not even the trigger table is read', async () => {
    const s = setup([entry('a1', { type: 'lead_created' })]);
    await s.dispatcher.emit(PROJECT, []);
    expect(s.table.queries).toBe(0);
  });
});

describe('the automation dispatcher: chunking', () => {
  test(`entrants go ${ENTRANTS_PER_MESSAGE} to a message, messages ten to a request (sendBatch)`, async () => {
    const s = setup([entry('a1', { type: 'lead_created' })]);
    const signals: LeadSignal[] = Array.from({ length: 250 }, (_, i) => ({ kind: 'lead_created', lead_id: `l${i}`, email: `l${i}@example.com`, key: `lead:l${i}` }));
    await s.dispatcher.emit(PROJECT, signals);
    const sent = s.sent() as Extract<EngineMessage, { kind: 'enter' }>[];
    expect(sent.map((m) => m.entrants.length)).toEqual([100, 100, 50]);
    expect(sent.flatMap((m) => m.entrants.map((e) => e.key))).toEqual(signals.map((x) => x.key));
    expect(s.requests).toHaveLength(1);
  });

  test('large properties: each message stays far under 256 KB, and a run\'s context is bounded', async () => {
    const s = setup([entry('a1', { type: 'event', event: 'big' })]);
    const big = { a: 'x'.repeat(10_000), b: 'y'.repeat(10_000), c: 1 };
    await s.dispatcher.emit(PROJECT, Array.from({ length: 60 }, (_, i) => ({ ...event('big', big, `e${i}`), lead_id: `l${i}` })));
    const sent = s.sent() as Extract<EngineMessage, { kind: 'enter' }>[];
    for (const m of sent) expect(Buffer.byteLength(JSON.stringify(m))).toBeLessThan(256 * 1024 - 10_000);
    expect(sent.flatMap((m) => m.entrants)).toHaveLength(60);
    const kept = sent[0].entrants[0].properties!;
    expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(AUTOMATION_LIMITS.contextBytes);
    expect(Object.keys(kept)).toEqual(['a', 'c']);
  });

  test(`segment_left names ${LEAD_IDS_PER_MESSAGE} leads a message`, async () => {
    const s = setup([entry('a1', { type: 'manual' }, { exit: [{ type: 'segment_left', segment_id: 's1' }] })]);
    await s.dispatcher.emit(PROJECT, Array.from({ length: 1500 }, (_, i) => ({ kind: 'segment_left', lead_id: `l${i}`, email: `l${i}@example.com`, segment_id: 's1', key: 'k' })));
    expect((s.sent() as Extract<EngineMessage, { kind: 'segment_left' }>[]).map((m) => m.lead_ids.length)).toEqual([1000, 500]);
  });
});

describe(`the trigger table cache (${TRIGGER_TABLE_CACHE_SECONDS} s)`, () => {
  test('is read once within the bound, again after it', async () => {
    const s = setup([entry('a1', { type: 'lead_created' })]);
    await s.dispatcher.emit(PROJECT, [{ kind: 'lead_created', ...LEAD, key: 'lead:l1' }]);
    s.advance((TRIGGER_TABLE_CACHE_SECONDS - 1) * 1000);
    await s.dispatcher.emit(PROJECT, [{ kind: 'lead_created', ...LEAD, key: 'lead:l2' }]);
    expect(s.table.queries).toBe(1);
    s.advance(2000);
    await s.dispatcher.emit(PROJECT, [{ kind: 'lead_created', ...LEAD, key: 'lead:l3' }]);
    expect(s.table.queries).toBe(2);
  });

  test('an activation (or a pause) written on this instance is seen at once', async () => {
    const s = setup([]);
    await s.dispatcher.emit(PROJECT, [{ kind: 'lead_created', ...LEAD, key: 'lead:l1' }]);
    expect(s.requests).toEqual([]);
    const activated = entry('a1', { type: 'lead_created' });
    s.table.entries.push(activated);
    await putTriggerEntry(s.db, activated);
    await s.dispatcher.emit(PROJECT, [{ kind: 'lead_created', ...LEAD, key: 'lead:l2' }]);
    expect(s.sent()).toHaveLength(1);
    s.table.entries.length = 0;
    await deleteTriggerEntry(s.db, PROJECT, 'a1');
    await s.dispatcher.emit(PROJECT, [{ kind: 'lead_created', ...LEAD, key: 'lead:l3' }]);
    expect(s.sent()).toHaveLength(1);
  });
});
