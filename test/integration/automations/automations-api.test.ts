import { randomUUID } from 'node:crypto';
import { overrideServices, services } from '../../../composition/services';
import { getSender } from '../../../shared/identities/domains/sender-repository';
import { getAutomationVersion, queryTriggerEntries } from '../../../shared/marketing/automations/automation-gateway';
import type { Queue } from '../../../shared/platform/core/ports';
import { CLOUD_TIMEOUT_MS, startTestCloud, type ApiAnswer, type TestCloud } from '../support/test-cloud';

/**
 * The automation definitions API (docs/automations.md): create, list, read, edit with versions,
 * activate with its checks, pause, delete or archive, and the template uses an active automation
 * holds. The engine is not run here: these tests check what the API answers, writes and queues.
 */

let cloud: TestCloud;
let senderId: string;
let realQueue: Queue;
/** Messages the API queued on the automations queue during a test. */
let queued: Record<string, unknown>[] = [];

beforeAll(async () => {
  cloud = await startTestCloud({ workers: false });
  senderId = (await getSender(services().db, cloud.seed.project_id, cloud.seed.sender_email))!.id;
  realQueue = services().queue;
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

beforeEach(() => {
  queued = [];
  overrideServices({
    queue: {
      send: (name, body, options) => realQueue.send(name, body, options),
      sendBatch: async (name, bodies, options) => {
        if (name === 'automations') queued.push(...(bodies as Record<string, unknown>[]));
        return realQueue.sendBatch(name, bodies, options);
      },
      changeVisibility: (name, handle, seconds) => realQueue.changeVisibility(name, handle, seconds),
    },
  });
});
afterEach(() => overrideServices({ queue: realQueue }));

type Data = Record<string, any>;
let n = 0;
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}-${n++}`;

async function template(): Promise<string> {
  const res = await cloud.api('POST', '/v1/templates', { body: { name: unique('Automation template'), html: '<p>Hello {{name}}</p>', subject: 'Welcome' } });
  expect(res.status).toBe(201);
  return (res.body.data as Data).id as string;
}

const send = (id: string, templateId: string, next: string | null = null, sender = senderId) => ({ id, type: 'send_email', template_id: templateId, sender_profile_id: sender, next });

/** The welcome series: on signed_up, a mail, two days, a second mail unless the first was opened; exit on purchased. */
async function welcomeSeries(over: Data = {}): Promise<Data> {
  const [first, second] = [await template(), await template()];
  return {
    name: unique('Welcome series'),
    trigger: { type: 'event', event: 'signed_up' },
    exit: [{ type: 'event', event: 'purchased' }],
    steps: [
      send('welcome', first, 'wait'),
      { id: 'wait', type: 'wait', duration: { days: 2 }, next: 'opened' },
      { id: 'opened', type: 'condition', condition: { opened: 'welcome' }, yes: null, no: 'nudge' },
      send('nudge', second),
    ],
    ...over,
  };
}

const create = (body: unknown, key?: string) => cloud.api('POST', '/v1/automations', { body, key });
async function created(body?: Data): Promise<Data> {
  const res = await create(body ?? (await welcomeSeries()));
  expect(res.status).toBe(201);
  return res.body.data as Data;
}
const call = (method: string, id: string, suffix = '', body?: unknown, key?: string) => cloud.api(method, `/v1/automations/${id}${suffix}`, { body, key });
const activate = (id: string) => call('POST', id, '/activate');

function expectError(res: ApiAnswer, status: number, body: Data) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body });
}

async function freshProjectKey(): Promise<string> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: unique('Other') } });
  return res.body.api_key as string;
}

describe('POST /v1/automations', () => {
  test('answers 201 with a draft at version 1, entry and exit defaulted', async () => {
    const body = await welcomeSeries({ exit: undefined });
    const res = await create(body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: body.name,
        status: 'draft',
        version: 1,
        trigger: { type: 'event', event: 'signed_up' },
        entry: { filter: null, reentry: 'once' },
        exit: [],
        steps: [
          { ...body.steps[0], email_type: 'marketing' },
          body.steps[1],
          body.steps[2],
          { ...body.steps[3], email_type: 'marketing' },
        ],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        activated_at: null,
        paused_at: null,
        archived_at: null,
      },
    });
  });

  test('refuses a bad body with a 400 naming the field', async () => {
    const body = await welcomeSeries();
    body.steps[1] = { id: 'wait', type: 'wait', duration: { days: 0 }, next: 'opened' };
    expectError(await create(body), 400, { error: 'steps[1].duration must be {days, hours, minutes}: whole numbers, at least one above 0, 365 days in all at most' });
    expectError(await create({ ...body, trigger: { type: 'cron' } }), 400, { error: 'trigger.type must be one of event, lead_created, tag_added, segment_entered, date, manual' });
  });
});

describe('GET /v1/automations and GET /v1/automations/:id', () => {
  test('lists the project\'s automations newest first, filtered by status, without definitions', async () => {
    const key = await freshProjectKey();
    const body = { trigger: { type: 'manual' }, steps: [{ id: 'done', type: 'exit' }] };
    const a = (await create({ ...body, name: 'A' }, key)).body.data as Data;
    const b = (await create({ ...body, name: 'B' }, key)).body.data as Data;
    await call('DELETE', a.id, '', undefined, key);
    const all = await cloud.api('GET', '/v1/automations?per_page=1', { key });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { id: b.id, name: 'B', status: 'draft', version: 1, trigger_type: 'manual', created_at: b.created_at, updated_at: b.updated_at, activated_at: null, paused_at: null, archived_at: null },
    ]);
    expect(all.body.pagination).toEqual({ page: 1, per_page: 1, total: 1, total_pages: 1, total_is_estimate: false, next_cursor: null });
    expect((await cloud.api('GET', '/v1/automations?status=active', { key })).body.data).toEqual([]);
    expect((await cloud.api('GET', '/v1/automations?status=draft', { key })).body.data).toHaveLength(1);
    expectError(await cloud.api('GET', '/v1/automations?status=running', { key }), 400, { error: 'status must be one of draft, active, paused, archived' });
  });

  test('reads one automation with its definition', async () => {
    const automation = await created();
    const res = await call('GET', automation.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(automation);
  });

  test("an unknown, malformed or another project's id is 404 NOT_FOUND, on every route", async () => {
    const automation = await created();
    const other = await freshProjectKey();
    const notFound = { error: 'Automation not found', code: 'NOT_FOUND' };
    expectError(await call('GET', automation.id, '', undefined, other), 404, notFound);
    expectError(await call('GET', randomUUID()), 404, notFound);
    expectError(await call('GET', 'welcome'), 404, notFound);
    expectError(await call('PUT', automation.id, '', await welcomeSeries(), other), 404, notFound);
    expectError(await call('POST', automation.id, '/activate', undefined, other), 404, notFound);
    expectError(await call('POST', automation.id, '/pause', undefined, other), 404, notFound);
    expectError(await call('DELETE', automation.id, '', undefined, other), 404, notFound);
    expect((await call('GET', automation.id)).status).toBe(200);
  });
});

describe('PUT /v1/automations/:id', () => {
  test('replaces a draft\'s version in place', async () => {
    const automation = await created();
    const body = await welcomeSeries({ name: 'Renamed', exit: [] });
    const res = await call('PUT', automation.id, '', body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', version: 1, exit: [], steps: [{ template_id: body.steps[0].template_id }, {}, {}, {}] });
    expect((await getAutomationVersion(services().db, automation.id, 1))?.steps[0]).toMatchObject({ template_id: body.steps[0].template_id });
    expect(await getAutomationVersion(services().db, automation.id, 2)).toBeUndefined();
    expect((await call('GET', automation.id)).body.data).toEqual(res.body.data);
  });

  test('an active automation\'s edit passes the checks first (409 naming the step, nothing written), then writes version 2 and its trigger entry', async () => {
    const automation = await created();
    expect((await activate(automation.id)).status).toBe(200);
    const broken = await welcomeSeries();
    broken.steps[3] = send('nudge', randomUUID());
    const refused = await call('PUT', automation.id, '', broken);
    expectError(refused, 409, { error: `Step "nudge": template ${broken.steps[3].template_id} does not exist`, code: 'AUTOMATION_INVALID', step: 'nudge' });
    expect((await call('GET', automation.id)).body.data).toMatchObject({ version: 1, name: automation.name });

    const body = await welcomeSeries({ name: 'Welcome v2' });
    body.steps[2] = { id: 'opened', type: 'wait_for_event', event: 'opened_app', timeout: { days: 1 }, on_event: null, on_timeout: 'nudge' };
    const res = await call('PUT', automation.id, '', body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Welcome v2', status: 'active', version: 2 });
    expect((await getAutomationVersion(services().db, automation.id, 1))?.steps[0]).toMatchObject({ template_id: automation.steps[0].template_id });
    const entry = (await queryTriggerEntries(services().db, cloud.seed.project_id)).find((e) => e.automation_id === automation.id);
    expect(entry).toMatchObject({ version: 2, wait_events: ['opened_app'] });

    // The template the old version sent is free; the new version's is in use.
    expect((await cloud.api('DELETE', `/v1/templates/${automation.steps[0].template_id}`)).status).toBe(200);
    const inUse = await cloud.api('DELETE', `/v1/templates/${body.steps[0].template_id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.automation_nodes).toEqual([`${automation.id}:welcome`]);
  });

  test('a paused automation\'s edit writes a new version without the checks', async () => {
    const automation = await created();
    await activate(automation.id);
    expect((await call('POST', automation.id, '/pause')).status).toBe(200);
    const half = { name: 'Half built', trigger: { type: 'manual' }, steps: [send('a', randomUUID(), 'missing')] };
    const res = await call('PUT', automation.id, '', half);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'paused', version: 2 });
    // Activation runs them.
    expectError(await activate(automation.id), 409, { error: 'Step "a": next names step "missing", which does not exist', code: 'AUTOMATION_INVALID', step: 'a' });
  });
});

describe('POST /v1/automations/:id/activate', () => {
  test('activates: the trigger entry is written with the events its waits listen for, and the templates are in use', async () => {
    const body = await welcomeSeries();
    body.steps[1] = { id: 'wait', type: 'wait_for_event', event: 'clicked_link', timeout: { days: 2 }, on_event: null, on_timeout: 'opened' };
    const automation = await created(body);
    const res = await activate(automation.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', version: 1, activated_at: expect.any(String) });
    const entries = await queryTriggerEntries(services().db, cloud.seed.project_id);
    expect(entries.find((e) => e.automation_id === automation.id)).toEqual({
      automation_id: automation.id,
      project_id: cloud.seed.project_id,
      version: 1,
      trigger: { type: 'event', event: 'signed_up' },
      exit: [{ type: 'event', event: 'purchased' }],
      wait_events: ['clicked_link'],
    });
    const inUse = await cloud.api('DELETE', `/v1/templates/${body.steps[3].template_id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({ code: 'TEMPLATE_IN_USE', automation_nodes: [`${automation.id}:nudge`], campaigns: [] });
    expect(queued).toEqual([]);
    expectError(await activate(automation.id), 409, { error: 'Automation is already active', code: 'INVALID_STATE' });
  });

  describe('refuses a definition that cannot run with 409 AUTOMATION_INVALID naming the step, writing nothing', () => {
    const cases: [string, (t: string) => Promise<Data> | Data, Data][] = [
      ['an unknown step', (t) => ({ steps: [send('a', t, 'b')] }), { step: 'a', error: 'Step "a": next names step "b", which does not exist' }],
      ['a duplicate id', (t) => ({ steps: [send('a', t, 'a2'), send('a2', t), send('a2', t)] }), { step: 'a2', error: 'Step "a2": its id is used by more than one step' }],
      ['an unreachable step', (t) => ({ steps: [send('a', t), send('lost', t)] }), { step: 'lost', error: 'Step "lost": no path from the first step ("a") reaches it' }],
      [
        'a cycle without a wait',
        (t) => ({ steps: [send('a', t, 'tag'), { id: 'tag', type: 'update_lead', add_tags: ['x'], next: 'a' }] }),
        { step: 'a', error: 'Step "a": the cycle "a" -> "tag" -> "a" passes no wait step' },
      ],
      [
        'an opened condition on a step that is not an earlier mail',
        (t) => ({ steps: [{ id: 'c', type: 'condition', condition: { opened: 'a' }, yes: 'a', no: null }, send('a', t)] }),
        { step: 'c', error: 'Step "c": condition.opened names step "a", which no path passes before this step' },
      ],
      ['a missing template', () => ({ steps: [send('a', '00000000-0000-4000-8000-000000000001')] }), { step: 'a', error: 'Step "a": template 00000000-0000-4000-8000-000000000001 does not exist' }],
      [
        'a missing sender profile',
        (t) => ({ steps: [send('a', t, null, '00000000-0000-4000-8000-000000000002')] }),
        { step: 'a', error: 'Step "a": sender profile 00000000-0000-4000-8000-000000000002 does not exist' },
      ],
      ['a webhook the project lacks', () => ({ steps: [{ id: 'hook', type: 'webhook', webhook_id: 'staging' }] }), { step: 'hook', error: 'Step "hook": webhook "staging" does not exist: the project has no URL for it' }],
      [
        'a missing segment in a step',
        () => ({ steps: [{ id: 'seg', type: 'update_lead', add_segment_ids: ['00000000-0000-4000-8000-000000000003'] }] }),
        { step: 'seg', error: 'Step "seg": segment 00000000-0000-4000-8000-000000000003 does not exist' },
      ],
      [
        'a missing trigger segment',
        (t) => ({ trigger: { type: 'segment_entered', segment_id: '00000000-0000-4000-8000-000000000004' }, steps: [send('a', t)] }),
        { step: null, error: 'Trigger: segment 00000000-0000-4000-8000-000000000004 does not exist' },
      ],
      [
        'a missing exit segment',
        (t) => ({ exit: [{ type: 'segment_left', segment_id: '00000000-0000-4000-8000-000000000005' }], steps: [send('a', t)] }),
        { step: null, error: 'Exit rule 1: segment 00000000-0000-4000-8000-000000000005 does not exist' },
      ],
    ];
    test.each(cases)('%s', async (_name, definition, expected) => {
      const automation = await created({ name: unique('Broken'), trigger: { type: 'manual' }, ...(await definition(await template())) });
      expectError(await activate(automation.id), 409, { ...expected, code: 'AUTOMATION_INVALID' });
      expect((await call('GET', automation.id)).body.data).toMatchObject({ status: 'draft', activated_at: null });
      expect((await queryTriggerEntries(services().db, cloud.seed.project_id)).some((e) => e.automation_id === automation.id)).toBe(false);
    });

    test('a sender profile that cannot send yet', async () => {
      const domain = `auto-${randomUUID().slice(0, 8)}.example.com`;
      const reg = await cloud.api('POST', '/domains/register', { body: { domain, sender_name: 'Pending', sender_email: `hello@${domain}` } });
      expect(reg.status).toBeLessThan(300);
      const pending = (await getSender(services().db, cloud.seed.project_id, `hello@${domain}`))!.id;
      const t = await template();
      const automation = await created({ name: unique('Pending sender'), trigger: { type: 'manual' }, steps: [send('a', t, null, pending)] });
      expectError(await activate(automation.id), 409, {
        error: `Step "a": sender profile ${pending} cannot send yet: its domain is not verified and its address is not confirmed`,
        code: 'AUTOMATION_INVALID',
        step: 'a',
      });
      // Nothing recorded: the template is free.
      expect((await cloud.api('DELETE', `/v1/templates/${t}`)).status).toBe(200);
    });
  });
});

describe('POST /v1/automations/:id/pause', () => {
  test('pauses an active automation (its trigger entry goes); activating it again queues one release per held-run shard', async () => {
    const automation = await created();
    expectError(await call('POST', automation.id, '/pause'), 409, { error: 'A draft automation cannot be paused; only an active one', code: 'INVALID_STATE' });
    await activate(automation.id);
    const res = await call('POST', automation.id, '/pause');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'paused', paused_at: expect.any(String) });
    expect((await queryTriggerEntries(services().db, cloud.seed.project_id)).some((e) => e.automation_id === automation.id)).toBe(false);
    expectError(await call('POST', automation.id, '/pause'), 409, { error: 'Automation is already paused', code: 'INVALID_STATE' });

    const resumed = await activate(automation.id);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ status: 'active' });
    expect(queued).toEqual(Array.from({ length: 16 }, (_, shard) => ({ kind: 'release', v: 1, automation_id: automation.id, shard })));
    expect((await queryTriggerEntries(services().db, cloud.seed.project_id)).some((e) => e.automation_id === automation.id)).toBe(true);
  });
});

describe('DELETE /v1/automations/:id', () => {
  test('deletes a draft', async () => {
    const automation = await created();
    const res = await call('DELETE', automation.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, deleted: true });
    expect((await call('GET', automation.id)).status).toBe(404);
    expect(await getAutomationVersion(services().db, automation.id, 1)).toBeUndefined();
  });

  test('archives an automation that was active: trigger entry gone, templates free, and archived is final', async () => {
    const automation = await created();
    await activate(automation.id);
    const res = await call('DELETE', automation.id);
    expect(res.body).toEqual({ success: true, archived: true });
    expect((await call('GET', automation.id)).body.data).toMatchObject({ status: 'archived', archived_at: expect.any(String) });
    expect((await queryTriggerEntries(services().db, cloud.seed.project_id)).some((e) => e.automation_id === automation.id)).toBe(false);
    expect((await cloud.api('DELETE', `/v1/templates/${automation.steps[0].template_id}`)).status).toBe(200);

    const archived = { error: 'Automation is archived', code: 'INVALID_STATE' };
    expectError(await call('DELETE', automation.id), 409, archived);
    expectError(await call('PUT', automation.id, '', await welcomeSeries()), 409, archived);
    expectError(await activate(automation.id), 409, archived);
    expectError(await call('POST', automation.id, '/pause'), 409, archived);
  });
});
