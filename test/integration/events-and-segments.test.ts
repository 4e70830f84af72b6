import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;
let n = 0;
type Data = Record<string, any>;

async function freshProject(): Promise<string> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Events ${Date.now()}-${n++}` } });
  return res.body.api_key as string;
}
const api = (key: string, method: string, path: string, body?: unknown) => cloud.api(method, path, { key, body });

beforeAll(async () => {
  cloud = await startTestCloud();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

describe('POST /v1/events', () => {
  test('trims and lowercases the email; an unknown email creates a lead with empty data', async () => {
    const k = await freshProject();
    const res = await api(k, 'POST', '/v1/events', { email: '  New@Example.com ', event: 'signup', properties: { plan: 'pro' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, created_lead: true });
    const lead = (await api(k, 'GET', `/v1/leads/${res.body.recipient_id}`)).body.lead as Data;
    expect(lead).toMatchObject({ email: 'new@example.com', data: {} });
    const again = await api(k, 'POST', '/v1/events', { email: 'new@example.com', event: 'login' });
    expect(again.body).toMatchObject({ recipient_id: res.body.recipient_id, created_lead: false });
  });

  test.each([
    [{ event: 'x' }, 'email is required'],
    [{ email: 'bad', event: 'x' }, 'email is not a valid email address'],
    [{ email: 'a@example.com' }, 'event is required'],
    [{ email: 'a@example.com', event: 'x', properties: [] }, 'properties must be an object'],
    [{ email: 'a@example.com', event: 'x', timestamp: 'yesterday' }, 'timestamp must be an ISO 8601 timestamp'],
  ])('%j -> 400 %s', async (body, error) => {
    const res = await api(cloud.seed.live_key, 'POST', '/v1/events', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
  });
});

describe('POST /v1/events/bulk', () => {
  test('names the failing index and records nothing; 1,000 pass and 1,001 do not', async () => {
    const k = await freshProject();
    const events = (count: number) => Array.from({ length: count }, (_, i) => ({ email: `e${i % 50}@example.com`, event: 'view', timestamp: new Date(Date.UTC(2030, 0, 1, 0, 0, i % 60)).toISOString() }));
    const bad = await api(k, 'POST', '/v1/events/bulk', { events: [...events(2), { event: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('events[2].email is required');
    expect(((await api(k, 'GET', '/v1/events')).body.pagination as Data).total).toBe(0);
    expect((await api(k, 'POST', '/v1/events/bulk', { events: events(1001) })).status).toBe(400);
    const ok = await api(k, 'POST', '/v1/events/bulk', { events: events(1000) });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ success: true, total: 1000, created_leads: 50 });
    expect(((await api(k, 'GET', '/v1/leads')).body.pagination as Data).total).toBe(50);
  }, 60_000);
});

describe('GET /v1/events', () => {
  test('by email and event, since/until inclusive, newest first, per_page 1 to 200', async () => {
    const k = await freshProject();
    const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s)).toISOString();
    await api(k, 'POST', '/v1/events/bulk', {
      events: [
        { email: 'a@example.com', event: 'buy', timestamp: at(1) },
        { email: 'a@example.com', event: 'buy', timestamp: at(2) },
        { email: 'a@example.com', event: 'view', timestamp: at(3) },
        { email: 'b@example.com', event: 'buy', timestamp: at(4) },
      ],
    });
    const byEmail = await api(k, 'GET', `/v1/events?email=A@example.com&event=buy`);
    expect((byEmail.body.data as Data[]).map((e) => e.timestamp)).toEqual([at(2), at(1)]);
    const byEvent = await api(k, 'GET', `/v1/events?event=buy&since=${at(2)}&until=${at(4)}`);
    expect((byEvent.body.data as Data[]).map((e) => e.email)).toEqual(['b@example.com', 'a@example.com']);
    expect(byEvent.body.pagination).toEqual({ page: 1, per_page: 50, total: 2, total_pages: 1, total_is_estimate: false, next_cursor: null });
    const first = await api(k, 'GET', '/v1/events?per_page=1');
    expect((first.body.data as Data[])[0].timestamp).toBe(at(4));
    expect(first.body.pagination).toEqual({ page: 1, per_page: 1, total: 4, total_pages: 4, total_is_estimate: false, next_cursor: expect.any(String) });
    const seen: string[] = [];
    for (let cursor: string | null = null, i = 0; i === 0 || cursor; i++) {
      const res: Awaited<ReturnType<typeof api>> = await api(k, 'GET', `/v1/events?per_page=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...(res.body.data as Data[]).map((e) => e.timestamp as string));
      cursor = (res.body.pagination as { next_cursor: string | null }).next_cursor;
    }
    expect(seen).toEqual([at(4), at(3), at(2), at(1)]);
    const byEmailPaged = await api(k, 'GET', `/v1/events?email=a@example.com&per_page=2`);
    const byEmailRest = await api(k, 'GET', `/v1/events?email=a@example.com&per_page=2&cursor=${(byEmailPaged.body.pagination as { next_cursor: string }).next_cursor}`);
    expect((byEmailRest.body.data as Data[]).map((e) => e.timestamp)).toEqual([at(1)]);
    expect((await api(k, 'GET', '/v1/events?per_page=200&page=6')).status).toBe(400);
    expect((await api(k, 'GET', '/v1/events?per_page=201')).status).toBe(400);
    expect((await api(k, 'GET', '/v1/events?per_page=0')).status).toBe(400);
  });
});

describe('segments', () => {
  test('create, list with member counts, rename, delete (memberships go too)', async () => {
    const k = await freshProject();
    const created = await api(k, 'POST', '/v1/segments', { name: 'VIP', description: 'best' });
    expect(created.status).toBe(201);
    const id = (created.body.segment as Data).id;
    await api(k, 'POST', '/v1/leads', { email: 'v@example.com', segment_ids: [id] });
    expect((await api(k, 'GET', '/v1/segments')).body.data).toMatchObject([{ id, name: 'VIP', description: 'best', type: 'static', member_count: 1 }]);
    expect(((await api(k, 'PATCH', `/v1/segments/${id}`, { name: 'Gold' })).body.segment as Data).name).toBe('Gold');
    expect((await api(k, 'POST', '/v1/segments', {})).body.error).toBe('name is required');
    expect((await api(k, 'DELETE', `/v1/segments/${id}`)).status).toBe(200);
    expect((await api(k, 'GET', `/v1/segments/${id}`)).status).toBe(404);
    const lead = ((await api(k, 'GET', '/v1/leads')).body.data as Data[])[0];
    expect(((await api(k, 'GET', `/v1/leads/${lead.id}`)).body.lead as Data).segment_ids).toEqual([]);
  });

  test('a dynamic segment is evaluated in the background: tags, attributes and an event within a period', async () => {
    const k = await freshProject();
    const leads = Array.from({ length: 300 }, (_, i) => ({ email: `d${i}@example.com`, data: { score: i, _tags: i % 2 ? ['odd'] : ['even'] } }));
    for (let i = 0; i < leads.length; i += 100) await api(k, 'POST', '/v1/leads', { leads: leads.slice(i, i + 100) });
    await api(k, 'POST', '/v1/events/bulk', { events: [1, 3, 5, 250].map((i) => ({ email: `d${i}@example.com`, event: 'purchase' })) });
    const bad = await api(k, 'POST', '/v1/segments', { name: 'Bad', filter: { conditions: [{ attribute: 'score', op: 'between' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^filter\.conditions\[0\]\.op must be one of/);
    const filter = { match: 'all', conditions: [{ tags: { any: ['odd'] } }, { attribute: 'score', op: 'lt', value: 100 }, { event: 'purchase', done: false, within_days: 7 }] };
    const id = ((await api(k, 'POST', '/v1/segments', { name: 'Odd low non-buyers', filter })).body.segment as Data).id;
    let segment: Data = {};
    for (let i = 0; i < 100 && segment.evaluation?.status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      segment = (await api(k, 'GET', `/v1/segments/${id}`)).body.segment as Data;
    }
    expect(segment.evaluation).toMatchObject({ status: 'done', generation: 1, member_count: 47 });
    expect(segment.member_count).toBe(47);
    const members = await api(k, 'GET', `/v1/leads?segment_id=${id}&per_page=200`);
    expect(members.body.pagination).toMatchObject({ total: 47 });
    expect((members.body.data as Data[]).every((l) => l.data.score < 100 && l.data._tags.includes('odd') && ![1, 3, 5].includes(l.data.score))).toBe(true);
    expect((await api(k, 'POST', `/v1/segments/${id}/evaluate`)).status).toBe(202);
  }, 90_000);
});
