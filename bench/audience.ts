/**
 * What the audience costs at size, measured against a running local cloud (started without its own
 * workers): a lead import of a generated CSV (time, write units per lead) through the same chunks,
 * checks and checkpoints the import worker runs, and a dynamic segment evaluated over the imported
 * leads (time), its jobs run 16 at a time as concurrent Lambdas would. Used by `npm run bench`
 * (bench/run.ts) and by its smoke test (test/integration/audience-bench.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { LocalCloud } from '../local/cloud';
import { parseAudienceJob } from '../shared/audience/leads/audience-job';
import { runAudienceJob } from '../shared/audience/leads/segment-service';
import { services } from '../composition/services';
import { importFromFile } from '../shared/audience/imports/import-service';
import { DynamoDBClient, type ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { createDocumentClient } from '../shared/platform/store/client';
import { transactionUnits } from './table-meter';

interface Meter {
  write: number;
}

const WRITE_COMMANDS = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

/** A DynamoDB client that adds the write units of every call to `meter` (transactions priced by their actions). */
function meteredDynamo(meter: Meter): DynamoDBClient {
  const client = new DynamoDBClient({});
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const reported = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (context.commandName === 'TransactWriteItemsCommand') meter.write += transactionUnits(input.TransactItems as { Put?: { Item?: Record<string, unknown> } }[]);
      else if (WRITE_COMMANDS.has(context.commandName ?? '')) meter.write += reported;
      return result;
    },
    { step: 'initialize', name: 'benchAudienceMeter' },
  );
  return client;
}

export interface AudienceResult {
  import: {
    rows: number;
    leads_created: number;
    rows_failed: number;
    duplicates: number;
    file_mb: number;
    seconds: number;
    rows_per_second: number;
    write_units_per_lead: number;
  };
  dynamic_segment: {
    leads: number;
    members: number;
    seconds: number;
  };
}

/** Writes a CSV of `rows` rows to `file` as a stream: one bad email every 500 rows, one repeated email every 1,000 (the later wins). */
async function writeCsv(file: string, rows: number): Promise<void> {
  const out = fs.createWriteStream(file);
  const write = (line: string) => (out.write(line) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write('email,first_name,last_name,plan,city,tags\n');
  for (let i = 1; i <= rows; i++) {
    if (i % 500 === 0) await write(`bad-row-${i},Bad,Row,free,Nowhere,\n`);
    else if (i % 1000 === 2) await write(`reader${i - 1}@example.com,Again,Reader,pro,Lyon,vip\n`);
    else await write(`reader${i}@example.com,First${i},Last${i},${i % 3 === 0 ? 'pro' : 'free'},City ${i % 50},${i % 7 === 0 ? 'vip;news' : 'news'}\n`);
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

/** Runs the `audience` queue's jobs until the segment's evaluation is done, up to 16 at once. */
async function drainAudience(cloud: LocalCloud, sqs: SQSClient, done: () => Promise<boolean>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  while (!(await done())) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.audience, MaxNumberOfMessages: 10, WaitTimeSeconds: inFlight.size > 0 ? 0 : 1 }));
    for (const m of out.Messages ?? []) {
      const job = (async () => {
        await runAudienceJob(services(), parseAudienceJob(m.Body ?? ''));
        await sqs.send(new DeleteMessageCommand({ QueueUrl: cloud.queueUrls.audience, ReceiptHandle: m.ReceiptHandle }));
      })().finally(() => inFlight.delete(job));
      inFlight.add(job);
    }
    while (inFlight.size >= 16) await Promise.race(inFlight);
    if ((out.Messages ?? []).length === 0 && inFlight.size > 0) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}

/** Imports `leads` generated rows into a new project, then evaluates a dynamic segment over them. */
export async function measureAudience(cloud: LocalCloud, options: { leads: number }): Promise<AudienceResult> {
  const partner = await fetch(`${cloud.baseUrl}/v1/partner/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${cloud.seed.partner_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Audience bench ${Date.now()}` }),
  });
  const { project_id: projectId, api_key: key } = (await partner.json()) as { project_id: string; api_key: string };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-import-'));
  const file = path.join(dir, 'leads.csv');
  try {
    await writeCsv(file, options.leads);
    const size = fs.statSync(file).size;
    const meter: Meter = { write: 0 };
    const dynamo = meteredDynamo(meter);
    const db = { doc: createDocumentClient(dynamo), tableName: services().db.tableName };
    const started = performance.now();
    const imported = await importFromFile({ db, clock: services().clock, leadSignals: services().leadSignals }, projectId, 'csv', size, async (offset) => fs.createReadStream(file, { start: offset }));
    const seconds = (performance.now() - started) / 1000;
    dynamo.destroy();

    const api = (method: string, p: string, body?: unknown) =>
      fetch(`${cloud.baseUrl}${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(
        async (r) => (await r.json()) as Record<string, any>,
      );
    const sqs = new SQSClient({});
    const segmentStarted = performance.now();
    const created = await api('POST', '/v1/segments', {
      name: 'Pro or VIP',
      filter: { match: 'any', conditions: [{ tags: { any: ['vip'] } }, { attribute: 'plan', op: 'eq', value: 'pro' }] },
    });
    const segmentId = created.segment.id as string;
    let members = 0;
    await drainAudience(cloud, sqs, async () => {
      const segment = (await api('GET', `/v1/segments/${segmentId}`)).segment;
      members = segment.member_count ?? 0;
      return segment.evaluation?.status === 'done';
    });
    const segmentSeconds = (performance.now() - segmentStarted) / 1000;
    sqs.destroy();

    const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
    return {
      import: {
        rows: imported.rows_processed,
        leads_created: imported.leads_created,
        rows_failed: imported.rows_failed,
        duplicates: imported.duplicates,
        file_mb: round(size / 1024 / 1024),
        seconds: round(seconds, 1),
        rows_per_second: Math.round(imported.rows_processed / seconds),
        write_units_per_lead: round(meter.write / imported.leads_created),
      },
      dynamic_segment: { leads: imported.leads_created, members, seconds: round(segmentSeconds, 1) },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
