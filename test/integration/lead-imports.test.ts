import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runAdminCli } from '../../bin/admin';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { countLeads, getLeadsByEmail } from '../../shared/audience/leads/lead-repository';
import { services } from '../../composition/services';
import { getImport, putNewImport, transition } from '../../shared/audience/imports/import-repository';
import { runImport } from '../../shared/audience/imports/import-run';
import { newImport, runImportJob as runImportJobCode } from '../../shared/audience/imports/import-service';
import type { Db } from '../../shared/platform/store/client';
import { CLOUD_TIMEOUT_MS, startTestCloud, type TestCloud } from './support/test-cloud';
import { asFunctionCode } from '../../local/iam/function-roles';

// The worker's own code, called in place of its handler: run as its function's role.
const runImportJob = asFunctionCode('lead-import-worker', runImportJobCode);

jest.setTimeout(120_000);

let cloud: TestCloud;
let n = 0;
type Data = Record<string, any>;

async function freshProject(): Promise<{ key: string; id: string }> {
  const res = await cloud.api('POST', '/v1/partner/projects', { key: cloud.seed.partner_key, body: { name: `Imports ${Date.now()}-${n++}` } });
  return { key: res.body.api_key as string, id: res.body.project_id as string };
}
const api = (key: string, method: string, path: string, body?: unknown) => cloud.api(method, path, { key, body });

/** Polls the import until it is done or failed. */
async function settled(key: string, id: string): Promise<Data> {
  const deadline = Date.now() + 100_000;
  for (;;) {
    const res = await api(key, 'GET', `/v1/leads/imports/${id}`);
    const record = res.body.import as Data;
    if (record && (record.status === 'done' || record.status === 'failed')) return record;
    if (Date.now() > deadline) throw new Error(`Import ${id} never settled: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function errorReport(key: string, id: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${cloud.baseUrl}/v1/leads/imports/${id}/errors`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/**
 * A CSV of `rows` data rows: every 100th row has a bad email; row 250k+2 repeats the email of the row
 * before it with another plan, in the same chunk of 500 (the later one must win). Returns the file and what an import of it must count.
 */
function sampleCsv(rows: number, prefix = 'lead') {
  const lines = ['Email,First_Name,Plan,Tags'];
  let bad = 0;
  let duplicates = 0;
  const emails = new Set<string>();
  for (let i = 1; i <= rows; i++) {
    if (i % 100 === 0) {
      lines.push(`not-an-email-${i},Bad,free,`);
      bad++;
    } else if (i % 250 === 2 && i > 2) {
      lines.push(`${prefix}${i - 1}@example.com,Again,pro,vip;beta`);
      duplicates++;
    } else {
      lines.push(`${prefix}${i}@Example.com,"Name, ${i}",free,`);
      emails.add(`${prefix}${i}@example.com`);
    }
  }
  return { text: `${lines.join('\r\n')}\r\n`, bad, duplicates, leads: emails.size };
}

beforeAll(async () => {
  cloud = await startTestCloud({ workers: ['lead-import-worker'] });
}, CLOUD_TIMEOUT_MS);
afterAll(() => cloud?.stop());

describe('POST /v1/leads/imports with inline CSV content', () => {
  test('2,000 rows: valid rows become leads, bad rows are reported with their row numbers, a repeated email keeps its last row', async () => {
    const { key } = await freshProject();
    const csv = sampleCsv(2000);
    const created = await api(key, 'POST', '/v1/leads/imports', { format: 'csv', content: csv.text });
    expect(created.status).toBe(201);
    expect(created.body.import).toMatchObject({ status: 'queued', format: 'csv' });
    const done = await settled(key, (created.body.import as Data).id);
    expect(done).toMatchObject({
      status: 'done',
      rows_processed: 2000,
      leads_created: csv.leads,
      leads_updated: 0,
      rows_failed: csv.bad,
      duplicates: csv.duplicates,
      progress: { percent: 100, bytes_read: Buffer.byteLength(csv.text), total_bytes: Buffer.byteLength(csv.text) },
    });
    expect((await api(key, 'GET', '/v1/leads?per_page=1')).body.pagination).toMatchObject({ total: csv.leads });

    const winner = (await api(key, 'GET', '/v1/leads?search=lead251@example.com')).body.data as Data[];
    expect(winner).toHaveLength(1);
    expect(winner[0].data).toMatchObject({ first_name: 'Again', plan: 'pro' });
    expect((await api(key, 'GET', '/v1/leads/lead251%40example.com/tags')).body.tags).toEqual(['vip', 'beta']);
    const plain = (await api(key, 'GET', '/v1/leads?search=lead7@example.com')).body.data as Data[];
    expect(plain[0].data).toEqual({ first_name: 'Name, 7', plan: 'free' });

    const report = await errorReport(key, done.id);
    expect(report.status).toBe(200);
    expect(report.type).toMatch(/^text\/csv/);
    const lines = report.text.trim().split('\r\n');
    expect(lines[0]).toBe('row,email,error');
    expect(lines).toHaveLength(1 + csv.bad);
    expect(lines[1]).toBe('100,not-an-email-100,email is not a valid email address');
    expect(lines[csv.bad]).toBe('2000,not-an-email-2000,email is not a valid email address');
  });

  test('a file without an email column fails as a whole, saying why', async () => {
    const { key } = await freshProject();
    const res = await api(key, 'POST', '/v1/leads/imports', { format: 'csv', content: 'name,plan\nAnn,pro\n' });
    const done = await settled(key, (res.body.import as Data).id);
    expect(done).toMatchObject({ status: 'failed', error: 'The CSV header has no email column', rows_processed: 0 });
  });

  test.each([
    [{}, 'format is required'],
    [{ format: 'xlsx' }, 'format must be one of: csv, jsonl'],
    [{ format: 'csv', content: 42 }, "content must be a string (the file's text)"],
    [{ format: 'csv', content: '' }, 'content must not be empty'],
    [[], 'Request body must be a JSON object'],
  ])('%j -> 400 %s', async (body, error) => {
    const res = await api(cloud.seed.live_key, 'POST', '/v1/leads/imports', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
  });
});

describe('POST /v1/leads/imports with an upload URL (JSON lines)', () => {
  test('the file PUT to the presigned URL is read once started; each line is checked as POST /v1/leads checks an item', async () => {
    const { key } = await freshProject();
    const created = await api(key, 'POST', '/v1/leads/imports', { format: 'jsonl' });
    expect(created.status).toBe(201);
    const id = (created.body.import as Data).id as string;
    expect(created.body.import).toMatchObject({ status: 'awaiting_upload' });
    const upload = created.body.upload as Data;
    expect(upload).toMatchObject({ method: 'PUT' });

    const early = await api(key, 'POST', `/v1/leads/imports/${id}/start`);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('Nothing was uploaded for this import yet: PUT the file to the upload URL first');

    const lines = [
      JSON.stringify({ email: 'ann@example.com', data: { name: 'Ann', plan: 'pro', score: 7 } }),
      '',
      '{"email": "bob@example.com"',
      JSON.stringify({ email: 'cat@example.com', data: [] }),
      JSON.stringify({ email: 'ANN@example.com', data: { plan: 'team' }, storeplatform_customer_id: 'c-1' }),
      JSON.stringify(['not', 'an', 'object']),
      JSON.stringify({ data: { name: 'No email' } }),
      JSON.stringify({ email: 'dan@example.com', segment_ids: ['6f1c2b8e-0000-4000-8000-000000000001'] }),
    ];
    const put = await fetch(upload.url, { method: 'PUT', body: `${lines.join('\n')}\n` });
    expect(put.status).toBe(200);

    const started = await api(key, 'POST', `/v1/leads/imports/${id}/start`);
    expect(started.status).toBe(202);
    expect((await api(key, 'POST', `/v1/leads/imports/${id}/start`)).body.error).toBe('Import already started');

    const done = await settled(key, id);
    expect(done).toMatchObject({ status: 'done', rows_processed: 7, leads_created: 2, rows_failed: 4, duplicates: 1, warnings: ['6f1c2b8e-0000-4000-8000-000000000001'] });
    const ann = ((await api(key, 'GET', '/v1/leads?search=ann@')).body.data as Data[])[0];
    // The same email twice in one chunk: the last row wins whole, as in a bulk POST /v1/leads.
    expect(ann).toMatchObject({ data: { plan: 'team' }, storeplatform_customer_id: 'c-1' });
    const report = (await errorReport(key, id)).text.trim().split('\r\n');
    expect(report).toEqual([
      'row,email,error',
      '2,,Line is not valid JSON',
      '3,cat@example.com,data must be an object',
      '5,,Line must be a JSON object',
      '6,,email is required',
    ]);
  });
});

describe('GET /v1/leads/imports/:id', () => {
  test('an unknown id is 404, a malformed one 400, another project\'s 404', async () => {
    const { key } = await freshProject();
    expect((await api(key, 'GET', '/v1/leads/imports/6f1c2b8e-0000-4000-8000-000000000009')).status).toBe(404);
    const bad = await api(key, 'GET', '/v1/leads/imports/nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid import id: nope');
    const other = await api(cloud.seed.live_key, 'POST', '/v1/leads/imports', { format: 'jsonl' });
    expect((await api(key, 'GET', `/v1/leads/imports/${(other.body.import as Data).id}`)).body.error).toBe('Import not found');
    expect((await errorReport(key, (other.body.import as Data).id)).status).toBe(404);
  });
});

describe('resuming an import', () => {
  /** A running import of `text` for a fresh project, and a way to open the text from an offset. */
  async function prepared(text: string) {
    const { id: projectId } = await freshProject();
    const { db, clock } = services();
    const record = newImport(projectId, 'csv', 'cli', clock.now().toISOString(), Buffer.byteLength(text));
    await putNewImport(db, record);
    await transition(db, record, 'start', { started_at: clock.now().toISOString() });
    const open = async (offset: number) => Readable.from([Buffer.from(text).subarray(offset)]);
    return { projectId, record: (await getImport(db, projectId, record.id))!, open };
  }

  /** A table whose checkpoint write number `n` fails, after the chunk's leads were written: a crash between upsert and checkpoint. */
  function crashingAtCheckpoint(db: Db, n: number): Db {
    let seen = 0;
    const doc = Object.create(db.doc) as Db['doc'];
    doc.send = (async (command: unknown) => {
      if (command instanceof UpdateCommand && String(command.input.ConditionExpression).includes('#offset = :from') && ++seen === n) throw new Error('simulated crash');
      return db.doc.send(command as UpdateCommand);
    }) as Db['doc']['send'];
    return { doc, tableName: db.tableName };
  }

  test('a crash after a chunk was written but before its checkpoint: the rerun replays that chunk and counts nothing twice', async () => {
    const csv = sampleCsv(1200, 'crash');
    const { projectId, record, open } = await prepared(csv.text);
    const { db, clock, leadSignals } = services();
    await expect(runImport({ db: crashingAtCheckpoint(db, 2), clock, leadSignals }, record, open, { chunkRows: 500 })).rejects.toThrow('simulated crash');
    const halfway = (await getImport(db, projectId, record.id))!;
    expect(halfway.rows).toBe(500);

    expect(await runImport({ db, clock, leadSignals }, halfway, open, { chunkRows: 500 })).toBe('done');
    const done = (await getImport(db, projectId, record.id))!;
    expect(done).toMatchObject({ status: 'done', rows: 1200, created: csv.leads, updated: 0, failed: csv.bad, duplicates: csv.duplicates, offset: Buffer.byteLength(csv.text) });
    expect(await countLeads(db, projectId)).toBe(csv.leads);
  });

  test('a run that dies between chunks (the stream breaks) resumes at the checkpoint\'s byte offset', async () => {
    const csv = sampleCsv(1200, 'torn');
    const { projectId, record, open } = await prepared(csv.text);
    const { db, clock, leadSignals } = services();
    const cut = Math.floor(Buffer.byteLength(csv.text) * 0.6);
    // The connection drops once the first chunk is checkpointed, with part of the second chunk read.
    const torn = async (offset: number) =>
      Readable.from((async function* () {
        yield Buffer.from(csv.text).subarray(offset, cut);
        while ((await getImport(db, projectId, record.id))!.rows < 500) await new Promise((r) => setTimeout(r, 50));
        throw new Error('connection reset');
      })());
    await expect(runImport({ db, clock, leadSignals }, record, torn, { chunkRows: 500 })).rejects.toThrow('connection reset');
    const halfway = (await getImport(db, projectId, record.id))!;
    expect(halfway.rows).toBe(500);

    expect(await runImport({ db, clock, leadSignals }, halfway, open, { chunkRows: 500 })).toBe('done');
    expect((await getImport(db, projectId, record.id))!).toMatchObject({ rows: 1200, created: csv.leads, failed: csv.bad, duplicates: csv.duplicates });
    expect(await countLeads(db, projectId)).toBe(csv.leads);
    const leads = await getLeadsByEmail(db, projectId, ['torn1199@example.com', 'torn1@example.com']);
    expect(leads.size).toBe(2);
  });

  test('a run past its deadline stops at a checkpoint (paused) and the next run continues from there', async () => {
    const csv = sampleCsv(1200, 'pause');
    const { projectId, record, open } = await prepared(csv.text);
    const { db, clock, leadSignals } = services();
    expect(await runImport({ db, clock, leadSignals }, record, open, { chunkRows: 500, deadline: 0 })).toBe('paused');
    const paused = (await getImport(db, projectId, record.id))!;
    expect(paused).toMatchObject({ status: 'running', rows: 500 });
    expect(await runImport({ db, clock, leadSignals }, paused, open, { chunkRows: 500 })).toBe('done');
    expect((await getImport(db, projectId, record.id))!).toMatchObject({ status: 'done', rows: 1200, created: csv.leads });
  });
});

describe('an import whose runs keep failing', () => {
  test('stays running while its message has receives left, and is failed with the error on the last one', async () => {
    const { id: projectId } = await freshProject();
    const deps = services();
    const text = sampleCsv(10, 'broken').text;
    const record = newImport(projectId, 'csv', 'content', deps.clock.now().toISOString(), Buffer.byteLength(text));
    await putNewImport(deps.db, record);
    await transition(deps.db, record, 'start', { started_at: deps.clock.now().toISOString() });
    const broken = { ...deps, blobs: { ...deps.blobs, readFrom: async () => Promise.reject(new Error('S3 is unreachable')) } };
    const job = { kind: 'run' as const, project_id: projectId, import_id: record.id };

    await expect(runImportJob(broken, job, { lastReceive: false })).rejects.toThrow('S3 is unreachable');
    expect((await getImport(deps.db, projectId, record.id))!.status).toBe('running');

    await expect(runImportJob(broken, job, { lastReceive: true })).resolves.toBeUndefined();
    expect((await getImport(deps.db, projectId, record.id))!).toMatchObject({ status: 'failed', error: expect.stringContaining('S3 is unreachable') });
  });
});

describe('npm run admin -- leads import', () => {
  test('imports a local file into the project, and the import shows in the API like any other', async () => {
    const { key, id: projectId } = await freshProject();
    const csv = sampleCsv(600, 'cli');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-import-')), 'leads.csv');
    fs.writeFileSync(file, csv.text);
    const out: string[] = [];
    const err: string[] = [];
    const env = { AWS_ENDPOINT_URL_DYNAMODB: process.env.AWS_ENDPOINT_URL_DYNAMODB, TABLE_NAME: process.env.TABLE_NAME, AWS_REGION: 'us-east-1' };
    const code = await runAdminCli(['leads', 'import', '--project', projectId, '--file', file, '--json'], env, { out: (t) => out.push(t), err: (t) => err.push(t) });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const result = JSON.parse(out.join('')) as Data;
    expect(result).toMatchObject({ status: 'done', rows_processed: 600, leads_created: csv.leads, rows_failed: csv.bad, duplicates: csv.duplicates });
    expect((await api(key, 'GET', `/v1/leads/imports/${result.id}`)).body.import).toMatchObject({ status: 'done', leads_created: csv.leads });

    const missing = await runAdminCli(['leads', 'import', '--project', '6f1c2b8e-0000-4000-8000-000000000009', '--file', __filename, '--format', 'csv'], env, { out: () => undefined, err: (t) => err.push(t) });
    expect(missing).toBe(1);
    expect(err).toEqual(['Project not found']);
  });
});
