import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';

jest.setTimeout(120_000);

let cloud: TestCloud;
let n = 0;
type Data = Record<string, any>;

async function freshProject(): Promise<{ key: string; id: string }> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Limits ${Date.now()}-${n++}` } });
  expect(res.status).toBe(201);
  return { key: res.body.api_key as string, id: res.body.project_id as string };
}
const api = (key: string, method: string, path: string, body?: unknown) => cloud.api(method, path, { key, body });
const leadPath = (email: string) => `/v1/leads/${encodeURIComponent(email)}`;

/** `count` keys of 1,000 characters each, named `<prefix><i>`: about 1 KB of data a key. */
const kilobytes = (prefix: string, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 'x'.repeat(1000)]));
/** `count` distinct tags starting at `from`, each `length` characters long. */
const tags = (from: number, count: number, length = 10) => Array.from({ length: count }, (_, i) => `tag-${from + i}-`.padEnd(length, 'x'));

const DATA_TOO_LARGE = (field: string) => new RegExp(`^${field.replace(/[[\].]/g, '\\$&')} would make the lead's data larger than 32 KB \\([\\d,]+ bytes with its tags\\)$`);
const bytesOf = (data: unknown) => Buffer.byteLength(JSON.stringify(data));

beforeAll(async () => {
  cloud = await startTestCloud({ workers: ['lead-import-worker'] });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

describe('A lead holds at most 32 KB of data, whatever number of writes brings it', () => {
  test('a second upsert of 30 new 1,000-character keys is 400 naming the limit, the lead as it was; attributes, bulk and PUT too', async () => {
    const { key } = await freshProject();
    const email = 'big@example.com';
    expect((await api(key, 'POST', '/v1/leads', { email, data: kilobytes('a', 30) })).status).toBe(201);

    const again = await api(key, 'POST', '/v1/leads', { email, data: kilobytes('b', 30) });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(DATA_TOO_LARGE('data'));

    const attributes = await api(key, 'POST', `${leadPath(email)}/attributes`, { c: 'x'.repeat(3000) });
    expect(attributes.status).toBe(400);
    expect(attributes.body.error).toMatch(DATA_TOO_LARGE('Request body'));

    // Bulk: the 400 names the item, and no lead of the call is written.
    const bulk = await api(key, 'POST', '/v1/leads', { leads: [{ email: 'small@example.com', data: { a: 1 } }, { email, data: kilobytes('b', 3) }] });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error).toMatch(DATA_TOO_LARGE('leads[1].data'));
    expect((await api(key, 'GET', '/v1/leads')).body.pagination).toMatchObject({ total: 1 });

    const stored = (await api(key, 'GET', `${leadPath(email)}/attributes`)).body.data as Data;
    expect(Object.keys(stored).sort()).toEqual(Object.keys(kilobytes('a', 30)).sort());

    // Writes that do not grow it pass: a shorter value, an event (its lead exists), a PUT within the limit.
    expect((await api(key, 'POST', `${leadPath(email)}/attributes`, { a0: 'short' })).status).toBe(200);
    expect((await api(key, 'POST', '/v1/events', { email, event: 'visit' })).status).toBe(201);
    const id = ((await api(key, 'POST', '/v1/leads', { email })).body.leads as Data[])[0].id as string;
    expect((await api(key, 'PUT', `/v1/leads/${id}`, { data: kilobytes('d', 31) })).status).toBe(200);

    // PUT keeps the lead's tags unless data._tags is given: they count towards the 32 KB.
    expect((await api(key, 'PUT', `/v1/leads/${id}`, { data: { z: 1 } })).status).toBe(200);
    expect((await api(key, 'POST', `${leadPath(email)}/tags`, { tags: tags(0, 100, 90) })).status).toBe(200);
    const put = await api(key, 'PUT', `/v1/leads/${id}`, { data: kilobytes('e', 25) });
    expect(put.status).toBe(400);
    expect(put.body.error).toMatch(DATA_TOO_LARGE('data'));
    expect((await api(key, 'GET', `${leadPath(email)}/attributes`)).body.data).toEqual({ z: 1 });
  });

  test('six parallel upserts of 8 KB each to one lead never leave more than 32 KB, and each one that answered 201 is in it', async () => {
    const { key } = await freshProject();
    const email = 'race@example.com';
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api(key, 'POST', '/v1/leads', { email, data: kilobytes(`r${i}-`, 8) })));
    expect(answers.map((a) => a.status).filter((s) => s !== 201 && s !== 400)).toEqual([]);
    for (const refused of answers.filter((a) => a.status === 400)) expect(refused.body.error).toMatch(DATA_TOO_LARGE('data'));
    const data = (await api(key, 'GET', `${leadPath(email)}/attributes`)).body.data as Data;
    expect(bytesOf(data)).toBeLessThanOrEqual(32 * 1024);
    expect(Object.keys(data)).toHaveLength(8 * answers.filter((a) => a.status === 201).length);
  });
});

describe('A lead holds at most 100 tags', () => {
  test('tags, upserts and bulk upserts that would pass 100 tags are 400 naming the limit; removing tags always works', async () => {
    const { key } = await freshProject();
    const email = 'tags@example.com';
    await api(key, 'POST', '/v1/leads', { email });
    expect((await api(key, 'POST', `${leadPath(email)}/tags`, { tags: tags(0, 100) })).status).toBe(200);

    const more = await api(key, 'POST', `${leadPath(email)}/tags`, { tags: tags(100, 100) });
    expect(more.status).toBe(400);
    expect(more.body.error).toBe('tags would give the lead more than 100 tags (200)');
    // Tags it has already: nothing grows.
    expect((await api(key, 'POST', `${leadPath(email)}/tags`, { tags: tags(0, 10) })).status).toBe(200);

    const upsert = await api(key, 'POST', '/v1/leads', { email, data: { _tags: ['one-more'] } });
    expect(upsert.status).toBe(400);
    expect(upsert.body.error).toBe("data._tags would give the lead more than 100 tags (101)");
    const bulk = await api(key, 'POST', '/v1/leads', { leads: [{ email: 'x@example.com' }, { email: 'y@example.com' }, { email, data: { _tags: ['a', 'b'] } }] });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error).toBe('leads[2].data._tags would give the lead more than 100 tags (102)');

    expect((await api(key, 'GET', `${leadPath(email)}/tags`)).body.tags).toEqual(tags(0, 100));
    expect((await api(key, 'DELETE', `${leadPath(email)}/tags`, { tags: tags(0, 50) })).body.tags).toEqual(tags(50, 50));
  });

  test('six parallel requests of 40 new tags each never leave more than 100 tags', async () => {
    const { key } = await freshProject();
    const email = 'tagrace@example.com';
    await api(key, 'POST', '/v1/leads', { email });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api(key, 'POST', `${leadPath(email)}/tags`, { tags: tags(i * 40, 40) })));
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 400)).toEqual([]);
    const stored = (await api(key, 'GET', `${leadPath(email)}/tags`)).body.tags as string[];
    expect(stored.length).toBeLessThanOrEqual(100);
    expect(stored).toHaveLength(40 * answers.filter((a) => a.status === 200).length);
  });
});

describe('A lead import fails the rows that would take a lead over a limit, and only those', () => {
  test('the error report names the row and the limit; the other rows are imported', async () => {
    const { key } = await freshProject();
    await api(key, 'POST', '/v1/leads', { email: 'full@example.com', data: kilobytes('a', 30) });
    await api(key, 'POST', '/v1/leads', { email: 'tagged@example.com', data: { _tags: tags(0, 100) } });
    const lines = [
      { email: 'full@example.com', data: { more: 'x'.repeat(3000) } },
      { email: 'new@example.com', data: { a: 1 } },
      { email: 'tagged@example.com', data: { _tags: ['one-more'] } },
      { email: 'tagged@example.com', data: { plan: 'pro' } },
    ].map((line) => JSON.stringify(line));
    // The last two rows share an email: the last one wins, and it brings no tag.
    lines.push(JSON.stringify({ email: 'full2@example.com', data: { _tags: ['t'] } }));
    const created = await api(key, 'POST', '/v1/leads/imports', { format: 'jsonl', content: `${lines.join('\n')}\n` });
    expect(created.status).toBe(201);
    const id = (created.body.import as Data).id as string;
    let record: Data = {};
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      record = (await api(key, 'GET', `/v1/leads/imports/${id}`)).body.import as Data;
      if (record.status === 'done' || record.status === 'failed') break;
    }
    expect(record).toMatchObject({ status: 'done', rows_processed: 5, rows_failed: 1, leads_created: 2, leads_updated: 1, duplicates: 1 });
    const report = await fetch(`${cloud.baseUrl}/v1/leads/imports/${id}/errors`, { headers: { authorization: `Bearer ${key}` } });
    const rows = (await report.text()).trim().split(/\r?\n/);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/^1,full@example\.com,"?data would make the lead's data larger than 32 KB \([\d,]+ bytes with its tags\)"?$/);
    expect(((await api(key, 'GET', `${leadPath('tagged@example.com')}/attributes`)).body.data as Data).plan).toBe('pro');
  });

  test('a row whose tags would pass 100 on its lead fails alone', async () => {
    const { key } = await freshProject();
    await api(key, 'POST', '/v1/leads', { email: 'tagged@example.com', data: { _tags: tags(0, 100) } });
    const content = `email,tags,plan\ntagged@example.com,one-more,pro\nother@example.com,a;b,free\n`;
    const id = ((await api(key, 'POST', '/v1/leads/imports', { format: 'csv', content })).body.import as Data).id as string;
    let record: Data = {};
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      record = (await api(key, 'GET', `/v1/leads/imports/${id}`)).body.import as Data;
      if (record.status === 'done' || record.status === 'failed') break;
    }
    expect(record).toMatchObject({ status: 'done', rows_processed: 2, rows_failed: 1, leads_created: 1 });
    const report = await (await fetch(`${cloud.baseUrl}/v1/leads/imports/${id}/errors`, { headers: { authorization: `Bearer ${key}` } })).text();
    expect(report.trim().split(/\r?\n/)[1]).toBe('1,tagged@example.com,data._tags would give the lead more than 100 tags (101)');
    expect((await api(key, 'GET', `${leadPath('tagged@example.com')}/tags`)).body.tags).toHaveLength(100);
  });
});
