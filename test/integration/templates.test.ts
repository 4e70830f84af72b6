import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { services } from '../../composition/services';
import { templateKey, templatesIndexedKey } from '../../shared/platform/store/keys';
import { recordTemplateUsage } from '../../shared/mail-pipeline/templates/template-repository';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

let cloud: TestCloud;
/** A fresh project per suite section, so lists start empty. */
let projectKey: string;
let projectId: string;

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${n++}`;

async function freshProject(): Promise<{ key: string; id: string }> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: unique('Templates') } });
  expect(res.status).toBe(201);
  return { key: res.body.api_key as string, id: res.body.project_id as string };
}

const api = (method: string, path: string, body?: unknown, key = projectKey) => cloud.api(method, path, { key, body });
const create = (body: Record<string, unknown>, key = projectKey) => api('POST', '/v1/templates', body, key);
type Data = Record<string, unknown>;

beforeAll(async () => {
  cloud = await startTestCloud();
  ({ key: projectKey, id: projectId } = await freshProject());
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

describe('POST /v1/templates', () => {
  test('creates with every field and answers {success, data: template}', async () => {
    const res = await create({ name: 'Welcome', html: '<p>Hi {{name}}</p>', subject: 'Hello', description: 'note', preheader: 'pre' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const data = res.body.data as Data;
    expect(data).toMatchObject({ name: 'Welcome', html: '<p>Hi {{name}}</p>', subject: 'Hello', description: 'note', preheader: 'pre', version: 1, project_id: projectId });
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isInteger(data.internal_id)).toBe(true);
    expect(data.created_at).toBe(data.updated_at);
  });

  test('optional fields default to null', async () => {
    const data = (await create({ name: 'Bare', html: '<p/>' })).body.data as Data;
    expect(data).toMatchObject({ subject: null, description: null, preheader: null });
  });

  test.each([[{ html: '<p/>' }], [{ name: 'x' }], [{ name: '', html: '<p/>' }], [{ name: 'x', html: '' }], [{}]])('%j -> 400 missing fields', async (body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Missing required fields: name, html');
  });

  test('20 concurrent creates get 20 distinct internal ids', async () => {
    const { key } = await freshProject();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ name: `Race ${i}`, html: '<p/>' }, key)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const ids = results.map((r) => (r.body.data as Data).internal_id as number);
    expect(new Set(ids).size).toBe(20);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const list = await api('GET', '/v1/templates?per_page=200', undefined, key);
    expect(list.body.pagination).toMatchObject({ total: 20 });
  });
});

describe('GET /v1/templates/:id', () => {
  test('by uuid and by internal id, with html', async () => {
    const created = (await create({ name: 'Lookup', html: '<b>{{x}}</b>' })).body.data as Data;
    for (const id of [created.id, created.internal_id]) {
      const res = await api('GET', `/v1/templates/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: created });
    }
  });

  test('400 for an id that is neither uuid nor number; 404 when absent', async () => {
    const bad = await api('GET', '/v1/templates/not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid template id: not-an-id');
    const uuid = '00000000-0000-4000-8000-000000000000';
    const missing = await api('GET', `/v1/templates/${uuid}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe(`Template not found with ID ${uuid}`);
    const missingNumber = await api('GET', '/v1/templates/999999');
    expect(missingNumber.status).toBe(404);
    expect(missingNumber.body.error).toBe('Template not found with ID 999999');
  });

  test("another project's template is a 404", async () => {
    const created = (await create({ name: 'Mine', html: '<p/>' })).body.data as Data;
    const res = await cloud.api('GET', `/v1/templates/${created.id}`);
    expect(res.status).toBe(404);
  });
});

describe('GET /v1/templates', () => {
  test('pages, searches by partial name in any case, newest update first, html empty', async () => {
    const { key } = await freshProject();
    const names = ['Order Confirmation', 'Order shipped', 'Newsletter', 'Password reset', 'Re-order reminder'];
    const made: Data[] = [];
    for (const name of names) made.push((await create({ name, html: '<p>body</p>' }, key)).body.data as Data);

    const all = await api('GET', '/v1/templates', undefined, key);
    expect(all.status).toBe(200);
    const data = all.body.data as Data[];
    expect(data.map((t) => t.name)).toEqual([...names].reverse());
    expect(data.every((t) => t.html === '')).toBe(true);
    expect(all.body.pagination).toEqual({ page: 1, per_page: 50, total: 5, total_pages: 1, total_is_estimate: false, next_cursor: null });

    const page2 = await api('GET', '/v1/templates?page=2&per_page=2', undefined, key);
    expect((page2.body.data as Data[]).map((t) => t.name)).toEqual(['Newsletter', 'Order shipped']);
    expect(page2.body.pagination).toEqual({ page: 2, per_page: 2, total: 5, total_pages: 3, total_is_estimate: false, next_cursor: expect.any(String) });
    const page3 = await api('GET', `/v1/templates?per_page=2&cursor=${(page2.body.pagination as Data).next_cursor}`, undefined, key);
    expect((page3.body.data as Data[]).map((t) => t.name)).toEqual(['Order Confirmation']);
    expect(page3.body.pagination).toMatchObject({ page: 1, total: 1, next_cursor: null });

    const search = await api('GET', '/v1/templates?search=ORDER', undefined, key);
    expect((search.body.data as Data[]).map((t) => t.name)).toEqual(['Re-order reminder', 'Order shipped', 'Order Confirmation']);
    expect(search.body.pagination).toMatchObject({ total: 3 });

    // An update moves a template to the front.
    await api('PUT', `/v1/templates/${made[0].id}`, { subject: 'New' }, key);
    const after = await api('GET', '/v1/templates?per_page=1', undefined, key);
    expect((after.body.data as Data[])[0]).toMatchObject({ name: 'Order Confirmation', subject: 'New', version: 2, html: '' });
    // A rename is searched by its new name; a deleted template leaves the list.
    await api('PUT', `/v1/templates/${made[2].id}`, { name: 'Monthly digest' }, key);
    expect(((await api('GET', '/v1/templates?search=digest', undefined, key)).body.data as Data[]).map((t) => t.name)).toEqual(['Monthly digest']);
    expect(((await api('GET', '/v1/templates?search=newsletter', undefined, key)).body.data as Data[]).length).toBe(0);
    await api('DELETE', `/v1/templates/${made[1].id}`, undefined, key);
    const left = await api('GET', '/v1/templates', undefined, key);
    expect((left.body.data as Data[]).map((t) => t.name)).toEqual(['Monthly digest', 'Order Confirmation', 'Re-order reminder', 'Password reset']);
    expect(left.body.pagination).toMatchObject({ total: 4, total_is_estimate: false });
  });

  test('offset pages reach 1,000 entries; deeper, and page with cursor, are a 400', async () => {
    const deep = await api('GET', '/v1/templates?page=6&per_page=200');
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatch(/next_cursor/);
    expect((await api('GET', '/v1/templates?page=2&cursor=abc')).status).toBe(400);
    expect((await api('GET', '/v1/templates?cursor=not-a-cursor')).body).toMatchObject({ error: 'cursor is not valid for this list' });
  });

  test('templates written before list entries existed are listed, once backfilled, newest update first', async () => {
    const { key, id } = await freshProject();
    const { db } = services();
    // Stored as before this release: the template items alone, without list entries or the marker.
    const old = [1, 2, 3].map((i) => ({
      id: `00000000-0000-4000-8000-00000000000${i}`,
      project_id: id,
      internal_id: i,
      name: `Legacy ${i}`,
      subject: null,
      description: null,
      preheader: null,
      html: '<p>old</p>',
      version: 1,
      created_at: `2025-01-0${i}T00:00:00.000Z`,
      updated_at: `2025-01-0${i}T00:00:00.000Z`,
    }));
    for (const t of old) await db.doc.send(new PutCommand({ TableName: db.tableName, Item: { ...templateKey(id, t.id), ...t } }));
    const fresh = (await create({ name: 'New one', html: '<p/>' }, key)).body.data as Data;

    // Parallel first lists: both backfill, both answer every template.
    const [a, b] = await Promise.all([api('GET', '/v1/templates', undefined, key), api('GET', '/v1/templates?search=legacy', undefined, key)]);
    expect((a.body.data as Data[]).map((t) => t.name)).toEqual(['New one', 'Legacy 3', 'Legacy 2', 'Legacy 1']);
    expect((a.body.data as Data[])[1]).toEqual({ ...old[2], html: '' });
    expect(a.body.pagination).toMatchObject({ total: 4, total_is_estimate: false });
    expect((b.body.data as Data[]).map((t) => t.name)).toEqual(['Legacy 3', 'Legacy 2', 'Legacy 1']);
    expect((await db.doc.send(new GetCommand({ TableName: db.tableName, Key: templatesIndexedKey(id) }))).Item).toBeDefined();

    // Afterwards old templates behave as new ones: updated to the front, deleted out of the list.
    await api('PUT', `/v1/templates/${old[0].id}`, { name: 'Legacy 1 renamed' }, key);
    await api('DELETE', `/v1/templates/${fresh.id}`, undefined, key);
    const after = await api('GET', '/v1/templates', undefined, key);
    expect((after.body.data as Data[]).map((t) => t.name)).toEqual(['Legacy 1 renamed', 'Legacy 3', 'Legacy 2']);
  });

  test('per_page above 200 is a 400', async () => {
    const res = await api('GET', '/v1/templates?per_page=201');
    expect(res.status).toBe(400);
  });
});

describe('PUT /v1/templates/:id', () => {
  test('changes the given fields, bumps version and updated_at', async () => {
    const created = (await create({ name: 'Editable', html: '<p>v1</p>', subject: 'S' })).body.data as Data;
    await new Promise((r) => setTimeout(r, 5));
    const res = await api('PUT', `/v1/templates/${created.internal_id}`, { html: '<p>v2</p>', description: 'd' });
    expect(res.status).toBe(200);
    const data = res.body.data as Data;
    expect(data).toMatchObject({ id: created.id, name: 'Editable', html: '<p>v2</p>', subject: 'S', description: 'd', version: 2, created_at: created.created_at });
    expect((data.updated_at as string) > (created.updated_at as string)).toBe(true);
    const read = await api('GET', `/v1/templates/${created.id}`);
    expect(read.body.data).toEqual(data);
  });

  test('400 without any field, or an empty name; 404 when absent', async () => {
    const created = (await create({ name: 'E2', html: '<p/>' })).body.data as Data;
    const empty = await api('PUT', `/v1/templates/${created.id}`, { other: 1 });
    expect(empty.status).toBe(400);
    expect((await api('PUT', `/v1/templates/${created.id}`, { name: '' })).status).toBe(400);
    expect((await api('PUT', '/v1/templates/424242', { name: 'x' })).status).toBe(404);
    expect((await api('PUT', '/v1/templates/abc', { name: 'x' })).status).toBe(400);
  });
});

describe('DELETE /v1/templates/:id', () => {
  test('deletes an unused template and its internal-id lookup', async () => {
    const created = (await create({ name: 'Gone', html: '<p/>' })).body.data as Data;
    const res = await api('DELETE', `/v1/templates/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect((await api('GET', `/v1/templates/${created.id}`)).status).toBe(404);
    expect((await api('GET', `/v1/templates/${created.internal_id}`)).status).toBe(404);
    expect((await api('DELETE', `/v1/templates/${created.id}`)).status).toBe(404);
  });

  test('in use: 409 TEMPLATE_IN_USE with its users, nothing deleted; force=true deletes', async () => {
    const created = (await create({ name: 'Used', html: '<p/>' })).body.data as Data;
    const { db } = services();
    // Campaigns record theirs through POST /v1/campaigns (campaigns-api.test.ts); automations do not exist yet.
    expect(await recordTemplateUsage(db, projectId, created.id as string, 'campaign', 'camp-1', new Date())).toBe(true);
    expect(await recordTemplateUsage(db, projectId, created.id as string, 'automation', 'node-7', new Date())).toBe(true);

    const refused = await api('DELETE', `/v1/templates/${created.internal_id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'TEMPLATE_IN_USE', automation_nodes: ['node-7'], campaigns: ['camp-1'] });
    expect((await api('GET', `/v1/templates/${created.id}`)).status).toBe(200);

    const forced = await api('DELETE', `/v1/templates/${created.id}?force=true`);
    expect(forced.status).toBe(200);
    expect((await api('GET', `/v1/templates/${created.id}`)).status).toBe(404);
  });
});
