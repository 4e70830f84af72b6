import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { listLeads } from '../../shared/audience/leads/lead-service';
import { services } from '../../composition/services';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;
let key: string;
let n = 0;
type Data = Record<string, any>;

async function freshProject(): Promise<string> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Audience ${Date.now()}-${n++}` } });
  expect(res.status).toBe(201);
  return res.body.api_key as string;
}
const api = (method: string, path: string, body?: unknown, k = key) => cloud.api(method, path, { key: k, body });
const seg = async (name: string, extra: Data = {}, k = key) => ((await api('POST', '/v1/segments', { name, ...extra }, k)).body.segment as Data).id as string;

beforeAll(async () => {
  cloud = await startTestCloud();
  key = await freshProject();
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

describe('POST /v1/leads', () => {
  test('upserts one lead by email (any case) and answers 201 {success, total, leads}', async () => {
    const first = await api('POST', '/v1/leads', { email: ' Ann@Example.com ', data: { name: 'Ann' }, storeplatform_customer_id: 'c-1' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ success: true, total: 1, leads: [{ email: 'ann@example.com', created: true }] });
    const again = await api('POST', '/v1/leads', { email: 'ANN@example.com', data: { plan: 'pro' } });
    expect(again.body.leads).toEqual([{ id: (first.body.leads as Data[])[0].id, email: 'ann@example.com', created: false }]);
    const lead = (await api('GET', `/v1/leads/${(first.body.leads as Data[])[0].id}`)).body.lead as Data;
    expect(lead).toMatchObject({ email: 'ann@example.com', data: { name: 'Ann', plan: 'pro' }, storeplatform_customer_id: 'c-1', segment_ids: [], marketing_status: 'subscribed' });
  });

  test('bulk: repeated emails deduplicated, last wins; unknown segment ids in warnings, leads still created', async () => {
    const k = await freshProject();
    const known = await seg('Known', {}, k);
    const unknown = '00000000-0000-4000-8000-000000000001';
    const res = await api('POST', '/v1/leads', { leads: [{ email: 'a@example.com', data: { v: 1 } }, { email: 'b@example.com', segment_ids: [known, unknown] }, { email: 'A@example.com', data: { v: 2 } }] }, k);
    expect(res.status).toBe(201);
    expect(res.body.total).toBe(2);
    expect(res.body.warnings).toEqual([unknown]);
    const list = await api('GET', '/v1/leads', undefined, k);
    expect(list.body.pagination).toEqual({ page: 1, per_page: 50, total: 2, total_pages: 1 });
    const a = (list.body.data as Data[]).find((l) => l.email === 'a@example.com')!;
    expect(a.data).toEqual({ v: 2 });
    const members = await api('GET', `/v1/leads?segment_id=${known}`, undefined, k);
    expect((members.body.data as Data[]).map((l) => l.email)).toEqual(['b@example.com']);
    expect(((await api('GET', `/v1/segments/${known}`, undefined, k)).body.segment as Data).member_count).toBe(1);
  });

  test('bulk limit: 1,000 leads pass, 1,001 answer 400', async () => {
    const k = await freshProject();
    const leads = (count: number) => Array.from({ length: count }, (_, i) => ({ email: `bulk${i}@example.com`, data: { i } }));
    const over = await api('POST', '/v1/leads', { leads: leads(1001) }, k);
    expect(over.status).toBe(400);
    expect(over.body.error).toBe('leads accepts at most 1000 items (got 1001)');
    const started = Date.now();
    const ok = await api('POST', '/v1/leads', { leads: leads(1000) }, k);
    const seconds = (Date.now() - started) / 1000;
    expect(ok.status).toBe(201);
    expect(ok.body.total).toBe(1000);
    expect(seconds).toBeLessThan(29);
    expect(((await api('GET', '/v1/leads?per_page=200&page=5', undefined, k)).body.pagination as Data)).toEqual({ page: 5, per_page: 200, total: 1000, total_pages: 5 });
  }, 120_000);

  test('20 concurrent upserts of one email in different cases give one lead', async () => {
    const k = await freshProject();
    const cases = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'Race@Example.COM' : 'race@example.com'));
    const answers = await Promise.all(cases.map((email, i) => api('POST', '/v1/leads', { email, data: { [`k${i}`]: i } }, k)));
    expect(answers.every((r) => r.status === 201)).toBe(true);
    expect(new Set(answers.map((r) => (r.body.leads as Data[])[0].id)).size).toBe(1);
    expect(answers.filter((r) => (r.body.leads as Data[])[0].created)).toHaveLength(1);
    const list = await api('GET', '/v1/leads', undefined, k);
    expect(list.body.pagination).toMatchObject({ total: 1 });
    expect(Object.keys((list.body.data as Data[])[0].data)).toHaveLength(20);
  }, 60_000);

  test.each([
    [{}, 'email is required'],
    [{ email: 'not-an-email' }, 'email is not a valid email address'],
    [{ email: 'x@example.com', data: [] }, 'data must be an object'],
    [{ email: 'x@example.com', segment_ids: ['nope'] }, 'segment_ids must be an array of segment ids (uuids)'],
    [{ leads: [{ email: 'x@example.com' }, { data: {} }] }, 'leads[1].email is required'],
  ])('%j -> 400 %s', async (body, error) => {
    const res = await api('POST', '/v1/leads', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
  });
});

describe('GET /v1/leads', () => {
  test('newest first, search on email or name prefix, per_page at most 200', async () => {
    const k = await freshProject();
    for (const [email, name] of [['zed@example.com', 'Alice Smith'], ['alice@example.com', 'Bob'], ['carl@example.com', 'Carl']]) {
      await api('POST', '/v1/leads', { email, data: { name } }, k);
    }
    expect(((await api('GET', '/v1/leads', undefined, k)).body.data as Data[]).map((l) => l.email)).toEqual(['carl@example.com', 'alice@example.com', 'zed@example.com']);
    const search = await api('GET', '/v1/leads?search=ALI', undefined, k);
    expect((search.body.data as Data[]).map((l) => l.email)).toEqual(['alice@example.com', 'zed@example.com']);
    expect(search.body.pagination).toMatchObject({ total: 2 });
    expect((await api('GET', '/v1/leads?per_page=201', undefined, k)).status).toBe(400);
    expect((await api('GET', '/v1/leads?segment_id=bad', undefined, k)).status).toBe(400);
  });
});

describe('GET /v1/leads?search=: a page reads its own window of matches, never the whole prefix', () => {
  let k: string;
  let projectId: string;
  // 300 leads whose email starts with "a" (half also named "A…"), and 100 found by their name only.
  const byEmail = Array.from({ length: 300 }, (_, i) => `a${String(i).padStart(3, '0')}@example.com`);
  const byName = Array.from({ length: 100 }, (_, i) => `z${String(i).padStart(3, '0')}@example.com`);

  beforeAll(async () => {
    const created = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Search ${Date.now()}` } });
    [k, projectId] = [created.body.api_key as string, created.body.project_id as string];
    const leads = [
      ...byEmail.map((email, i) => ({ email, data: i % 2 === 0 ? { name: `Al ${i}` } : {} })),
      ...byName.map((email, i) => ({ email, data: { name: `Amy ${String(i).padStart(3, '0')}` } })),
      { email: 'bob@example.com', data: { name: 'Bob' } },
    ];
    expect((await api('POST', '/v1/leads', { leads }, k)).status).toBe(201);
  });

  test('a one-character search reads at most per_page + 1 keys per shard and phase, not every match', async () => {
    let keysRead = 0;
    const db = services().db;
    const counting = { ...db, doc: { send: async (command: any) => {
      const out: any = await db.doc.send(command);
      if (command instanceof QueryCommand) keysRead += (out.Items ?? []).length;
      return out;
    } } } as typeof db;
    const page = await listLeads(counting, projectId, { page: 1, perPage: 10 }, { search: 'a' });
    expect(page.leads.map((l) => l.email)).toEqual(byEmail.slice(0, 10));
    expect(keysRead).toBeLessThanOrEqual(2 * 16 * 11);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  test('next_cursor walks every match once: emails in order, then the leads found by name only', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const res = await api('GET', `/v1/leads?search=A&per_page=50${cursor ? `&cursor=${cursor}` : ''}`, undefined, k);
      expect(res.status).toBe(200);
      expect((res.body.data as Data[]).length).toBeLessThanOrEqual(50);
      seen.push(...(res.body.data as Data[]).map((l) => l.email as string));
      cursor = (res.body.pagination as Data).next_cursor;
      requests++;
    } while (cursor && requests < 30);
    expect(seen).toEqual([...byEmail, ...byName]);
  });

  test('page keeps working up to 1,000 deep, and agrees with the cursor; deeper is a 400 naming cursor', async () => {
    const second = await api('GET', '/v1/leads?search=a&per_page=50&page=2', undefined, k);
    expect((second.body.data as Data[]).map((l) => l.email)).toEqual(byEmail.slice(50, 100));
    expect(second.body.pagination).toMatchObject({ page: 2, per_page: 50, total: 101, next_cursor: expect.any(String) });
    const first = await api('GET', '/v1/leads?search=a&per_page=50', undefined, k);
    const viaCursor = await api('GET', `/v1/leads?search=a&per_page=50&cursor=${(first.body.pagination as Data).next_cursor}`, undefined, k);
    expect(viaCursor.body.data).toEqual(second.body.data);
    const last = await api('GET', '/v1/leads?search=amy&per_page=200', undefined, k);
    expect(last.body.pagination).toMatchObject({ total: 100, next_cursor: null });
    const deep = await api('GET', '/v1/leads?search=a&per_page=200&page=6', undefined, k);
    expect(deep.status).toBe(400);
    expect(deep.body.error).toContain('cursor');
    const foreign = await api('GET', `/v1/leads?search=b&cursor=${(first.body.pagination as Data).next_cursor}`, undefined, k);
    expect(foreign.status).toBe(400);
  });
});

describe('GET, PUT, DELETE /v1/leads/:id', () => {
  test('PUT replaces data (tags kept), replaces memberships ignoring unknown ids; 409 on another lead\'s email', async () => {
    const k = await freshProject();
    const [s1, s2] = [await seg('One', {}, k), await seg('Two', {}, k)];
    const id = ((await api('POST', '/v1/leads', { email: 'p@example.com', data: { a: 1 }, segment_ids: [s1] }, k)).body.leads as Data[])[0].id;
    await api('POST', '/v1/leads', { email: 'other@example.com' }, k);
    await api('POST', `/v1/leads/${encodeURIComponent('p@example.com')}/tags`, { tags: ['vip'] }, k);
    const put = await api('PUT', `/v1/leads/${id}`, { email: 'New@Example.com', data: { b: 2 }, segment_ids: [s2, '00000000-0000-4000-8000-000000000009'] }, k);
    expect(put.status).toBe(200);
    expect(put.body.lead).toMatchObject({ id, email: 'new@example.com', data: { b: 2, _tags: ['vip'] }, segment_ids: [s2] });
    expect((await api('GET', `/v1/leads/${encodeURIComponent('new@example.com')}/tags`, undefined, k)).body.tags).toEqual(['vip']);
    const dup = await api('PUT', `/v1/leads/${id}`, { email: 'other@example.com' }, k);
    expect(dup.status).toBe(409);
    expect((await api('PUT', `/v1/leads/${id}`, {}, k)).body.error).toBe('At least one of email, data, segment_ids is required');
    const counts = (await api('GET', '/v1/segments', undefined, k)).body.data as Data[];
    expect(Object.fromEntries(counts.map((s) => [s.name, s.member_count]))).toEqual({ One: 0, Two: 1 });
    expect((await api('DELETE', `/v1/leads/${id}`, undefined, k)).body).toEqual({ success: true });
    expect((await api('GET', `/v1/leads/${id}`, undefined, k)).status).toBe(404);
    expect(((await api('GET', `/v1/segments/${s2}`, undefined, k)).body.segment as Data).member_count).toBe(0);
    expect(((await api('GET', '/v1/leads', undefined, k)).body.pagination as Data).total).toBe(1);
    expect((await api('GET', '/v1/leads/not-a-uuid', undefined, k)).status).toBe(400);
  });

  test('membership: adding with a missing segment is 404 and adds nothing; removing a non-member is 404', async () => {
    const k = await freshProject();
    const s1 = await seg('S', {}, k);
    const id = ((await api('POST', '/v1/leads', { email: 'm@example.com' }, k)).body.leads as Data[])[0].id;
    const missing = await api('POST', `/v1/leads/${id}/segments`, { segment_ids: [s1, '00000000-0000-4000-8000-000000000002'] }, k);
    expect(missing.status).toBe(404);
    expect(((await api('GET', `/v1/leads/${id}`, undefined, k)).body.lead as Data).segment_ids).toEqual([]);
    expect((await api('POST', `/v1/leads/${id}/segments`, { segment_ids: [s1] }, k)).body).toEqual({ success: true, added: [s1] });
    expect((await api('DELETE', `/v1/leads/${id}/segments/${s1}`, undefined, k)).status).toBe(200);
    expect((await api('DELETE', `/v1/leads/${id}/segments/${s1}`, undefined, k)).status).toBe(404);
    expect((await api('POST', `/v1/leads/${id}/segments`, {}, k)).body.error).toBe('segment_ids is required');
  });
});

describe('tags and attributes by URL-encoded email', () => {
  test('tags merge without duplicates under _tags; attributes shallow-merge and hide _tags', async () => {
    const k = await freshProject();
    await api('POST', '/v1/leads', { email: 't+1@example.com', data: { a: 1 } }, k);
    const path = `/v1/leads/${encodeURIComponent('T+1@example.com')}`;
    expect((await api('POST', `${path}/tags`, { tags: ['x', 'y'] }, k)).body).toEqual({ success: true, tags: ['x', 'y'] });
    expect((await api('POST', `${path}/tags`, { tags: ['y', 'z'] }, k)).body.tags).toEqual(['x', 'y', 'z']);
    expect((await api('DELETE', `${path}/tags`, { tags: ['x'] }, k)).body.tags).toEqual(['y', 'z']);
    expect((await api('POST', `${path}/attributes`, { b: 2, a: 3 }, k)).body).toEqual({ success: true, data: { a: 3, b: 2 } });
    expect((await api('GET', `${path}/attributes`, undefined, k)).body.data).toEqual({ a: 3, b: 2 });
    expect((await api('GET', `${path}/tags`, undefined, k)).body.tags).toEqual(['y', 'z']);
    expect((await api('POST', `${path}/tags`, {}, k)).status).toBe(400);
    expect((await api('GET', `/v1/leads/${encodeURIComponent('nobody@example.com')}/tags`, undefined, k)).status).toBe(404);
  });

  test('marketing status reads the suppression list', async () => {
    const k = await freshProject();
    const id = ((await api('POST', '/v1/leads', { email: 'gone@example.com' }, k)).body.leads as Data[])[0].id;
    await api('POST', '/v1/suppressions', { email: 'gone@example.com' }, k);
    expect(((await api('GET', `/v1/leads/${id}`, undefined, k)).body.lead as Data).marketing_status).toBe('suppressed');
  });
});
