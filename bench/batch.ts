/**
 * What one batch send (`POST /v1/send-batch`, issue 16) costs per recipient, measured against a
 * local cloud started without its own workers: the API call, then the fan-out and batch-send
 * queues drained by the real workers, then the SES events a deployment publishes. Meters and the
 * GB-second model are bench/measure.ts's. Used by `npm run bench` (`batch` in bench/results.json)
 * and, small, by test/integration/batch-cost-budget.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { LocalCloud } from '../local/cloud';
import type { FileStore } from '../shared/platform/core/ports';
import { RESULTS_FILE, withBenchCloud, writeResults } from './bench-cloud';
import { scalePlan } from './scale';
import { applyPublishedSesEvents, cpuMsSince, memoryEstimates, meteredDynamo, meteredSqs, round, type Meter } from './measure';
import { PRICES, S3_PRICES, SES_PRICE_PER_MAIL } from './prices';
import { asFunction } from '../local/iam/function-roles';

/** Memory (MB) of each function on the batch path, as lib/ configures it. */
export interface BatchFunctionMemory {
  batches: number;
  'batch-fanout': number;
  'batch-send-worker': number;
  'ses-events': number;
}

type Step = keyof BatchFunctionMemory;
const STEPS: Step[] = ['batches', 'batch-fanout', 'batch-send-worker', 'ses-events'];

export interface BatchResult {
  recipients: number;
  /** Sent with `scheduled_at` (its records written at accept, then fired), or at once. */
  scheduled: boolean;
  html_kb: number;
  /** Wall time of the one POST, measured at the client (the local server adds little). Goal: under 2 s. */
  api_ms: number;
  /** .eml files the local SES wrote: every recipient's mail, once. */
  outbox_mails: number;
  overhead_pct: number;
  dollars_per_1000_mails: number;
  write_units_per_recipient: number;
  read_units_per_recipient: number;
  write_units_by_step: Record<Step, number>;
  read_units_by_step: Record<Step, number>;
  dynamodb_requests_per_recipient: number;
  sqs_requests_per_recipient: number;
  s3_requests_per_recipient: { put: number; get: number };
  event_publishes_per_recipient: number;
  lambda_invocations_per_recipient: number;
  lambda_invocations: Record<Step, number>;
  /** At each function's configured memory, from bench/measure.ts's model. */
  lambda_gb_seconds_per_recipient: number;
  lambda_ms_per_recipient: Record<Step, number>;
  memory_mb: BatchFunctionMemory;
  dollars_by_part_per_1000_mails: { dynamodb: number; sqs: number; s3: number; event_publish: number; lambda: number };
}

/** One worker's time over a drained queue. */
interface Drained {
  invocations: number;
  ms: number;
  cpu: number;
  /** Receive and delete requests, one each per invocation (what the Lambda event source spends). */
  pollRequests: number;
}

/**
 * Drains `queueUrl` into `handler`, `batchSize` messages to an invocation as the Lambda event
 * source does, until `done` says every expected message was handled. A reported failure stops the
 * bench: a figure measured over failed sends would mean nothing.
 */
async function drainQueue(
  sqs: SQSClient,
  queueUrl: string,
  handler: (event: SQSEvent) => Promise<unknown>,
  batchSize: number,
  done: (bodies: string[]) => boolean,
): Promise<Drained> {
  const drained: Drained = { invocations: 0, ms: 0, cpu: 0, pollRequests: 0 };
  const bodies: string[] = [];
  for (let idle = 0; !done(bodies); ) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: batchSize, WaitTimeSeconds: 1 }));
    const messages = out.Messages ?? [];
    if (messages.length === 0) {
      if (++idle > 30) throw new Error(`Queue ${queueUrl} ran dry before every message came`);
      continue;
    }
    idle = 0;
    const event = { Records: messages.map((m) => ({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body })) } as unknown as SQSEvent;
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = (await handler(event)) as SQSBatchResponse;
    drained.ms += performance.now() - started;
    drained.cpu += cpuMsSince(cpu);
    drained.invocations++;
    if (result.batchItemFailures.length > 0) throw new Error(`Worker of ${queueUrl} reported failures`);
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
    drained.pollRequests += 2;
    bodies.push(...messages.map((m) => m.Body ?? ''));
  }
  return drained;
}

/** A blob store that counts the S3 requests made through it (one PUT or GET each). */
function countedBlobs(inner: FileStore, counter: { put: number; get: number }): FileStore {
  return {
    size: (key) => inner.size(key),
    readFrom: (key, offset) => inner.readFrom(key, offset),
    uploadUrl: (key, seconds) => inner.uploadUrl(key, seconds),
    downloadUrl: (key, seconds, filename) => inner.downloadUrl(key, seconds, filename),
    startUpload: (key, contentType) => inner.startUpload(key, contentType),
    uploadPart: (key, uploadId, n, body) => inner.uploadPart(key, uploadId, n, body),
    completeUpload: (key, uploadId, parts) => inner.completeUpload(key, uploadId, parts),
    put: (key, body) => {
      counter.put++;
      return inner.put(key, body);
    },
    get: (key) => {
      counter.get++;
      return inner.get(key);
    },
  };
}

/** The .eml files in the local SES outbox. */
const outboxCount = (cloud: LocalCloud) => fs.readdirSync(cloud.outboxDir).filter((f) => f.endsWith('.eml')).length;

/**
 * Sends one batch of `recipients` personalised mails through the API, expands it with the real
 * fan-out worker, sends it with the real batch-send worker, applies the Delivery events, and
 * returns the per-recipient figures. Throws when a mail is missing from the outbox.
 */
export async function measureBatch(cloud: LocalCloud, options: { recipients: number; memory: BatchFunctionMemory; scheduled?: boolean }): Promise<BatchResult> {
  const { overrideServices, services } = await import('../composition/services');
  const { createDocumentClient } = await import('../shared/platform/store/client');
  const { SqsQueue } = await import('../shared/platform/adapters/sqs-queue');
  const { QueueEventPublisher } = await import('../shared/platform/adapters/queue-event-publisher');
  const { queues } = await import('../shared/platform/core/queues');
  const N = options.recipients;
  const original = services();
  const tableName = original.db.tableName;
  const sqs = new SQSClient({});
  const queueRequests = { requests: 0 };
  const s3 = { put: 0, get: 0 };
  const queue = SqsQueue.fromConfig(meteredSqs(queueRequests), original.config);
  const blobs = countedBlobs(original.blobs, s3);
  const meters = Object.fromEntries(STEPS.map((s) => [s, { write: 0, read: 0, requests: 0 }])) as Record<Step, Meter>;
  const use = (step: Step) => overrideServices({ db: { doc: createDocumentClient(meteredDynamo(meters[step])), tableName }, queue, events: new QueueEventPublisher(queue), blobs });
  const html = `<p>Hi {{name}}, your code is {{code}}.</p>\n${fs.readFileSync(path.join(__dirname, 'sample-mail.html'), 'utf8')}`;
  const outboxBefore = outboxCount(cloud);

  try {
    // Phase 1: the API accepts the batch.
    use('batches');
    const recipients = Array.from({ length: N }, (_, i) => ({ email: `reader${i}@example.com`, name: `Reader ${i}`, data: { code: `C${i}` } }));
    // A scheduled batch is due a few seconds after its call, and fired then as the scheduled worker fires it.
    const scheduledFor = options.scheduled ? new Date(Date.now() + 3000).toISOString() : undefined;
    const body = JSON.stringify({ sender: cloud.seed.sender_email, subject: 'Your order, {{name}}', html, email_type: 'transactional', recipients, ...(scheduledFor ? { scheduled_at: scheduledFor } : {}) });
    const started = performance.now();
    const cpu = process.cpuUsage();
    const res = await fetch(`${cloud.baseUrl}/v1/send-batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cloud.seed.live_key}`, 'content-type': 'application/json' },
      body,
    });
    const answer = (await res.json()) as { batch_id?: string; counts?: { accepted: number } };
    const apiMs = performance.now() - started;
    const apiCpu = cpuMsSince(cpu);
    if (res.status !== 200 || answer.counts?.accepted !== N) throw new Error(`send-batch answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);

    // Phase 2: the fan-out expands every chunk (a scheduled batch's fire, counted with it, queues them).
    use('batch-fanout');
    if (scheduledFor) {
      const { fireScheduledBatch } = await import('../shared/mail-pipeline/batches/fire-scheduled-batch');
      const { scheduledBatchDueId } = await import('../shared/platform/store/keys');
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(scheduledFor) - Date.now())));
      const fired = await fireScheduledBatch(services(), { v: 1, id: scheduledBatchDueId(answer.batch_id!), scheduled_for: scheduledFor });
      if (fired !== 'started') throw new Error(`The scheduled batch was ${fired}, not started`);
    }
    const fanout = asFunction('batch-fanout', (await import('../functions/batch-fanout/handler')).handler);
    const chunks = Math.ceil(N / 500);
    const fanned = await drainQueue(sqs, cloud.queueUrls.fanout, fanout, queues.fanout.batchSize, (b) => b.length >= chunks);

    // Phase 3: the batch-send worker sends every recipient.
    use('batch-send-worker');
    const sendWorker = asFunction('batch-send-worker', (await import('../functions/batch-send-worker/handler')).handler);
    const recipientsIn = (bodies: string[]) => bodies.reduce((sum, b) => sum + (JSON.parse(b) as { recipients: unknown[] }).recipients.length, 0);
    const sent = await drainQueue(sqs, cloud.queueUrls['batch-send'], sendWorker, queues['batch-send'].batchSize, (b) => recipientsIn(b) >= N);

    // Phase 4: the Delivery events.
    use('ses-events');
    const events = await applyPublishedSesEvents(cloud, sqs);
    const outboxMails = outboxCount(cloud) - outboxBefore;
    if (outboxMails !== N) throw new Error(`The outbox holds ${outboxMails} of the batch's ${N} mails`);

    const per = (n: number) => n / N;
    const sum = (pick: (m: Meter) => number) => STEPS.reduce((total, s) => total + pick(meters[s]), 0);
    const write = per(sum((m) => m.write));
    const read = per(sum((m) => m.read));
    const ms: Record<Step, number> = { batches: apiMs, 'batch-fanout': fanned.ms, 'batch-send-worker': sent.ms, 'ses-events': events.ms };
    const cpus: Record<Step, number> = { batches: apiCpu, 'batch-fanout': fanned.cpu, 'batch-send-worker': sent.cpu, 'ses-events': events.cpu };
    const invocations: Record<Step, number> = { batches: 1, 'batch-fanout': fanned.invocations, 'batch-send-worker': sent.invocations, 'ses-events': events.invocations };
    const gbs = STEPS.reduce((total, s) => total + memoryEstimates(per(cpus[s]), per(ms[s]), [options.memory[s]])[0].gb_seconds_per_mail, 0);
    const invocationsPer = per(Object.values(invocations).reduce((a, b) => a + b, 0));
    // As for single sends: each published event is an SNS publish, a queue message, and its share of a receive and delete.
    const sqsRequests = per(queueRequests.requests + fanned.pollRequests + sent.pollRequests + events.published + 2 * events.invocations);
    const dollars = {
      dynamodb: write * PRICES.dynamodbWriteUnit + read * PRICES.dynamodbReadUnit,
      sqs: sqsRequests * PRICES.sqsRequest,
      s3: per(s3.put) * S3_PRICES.put + per(s3.get) * S3_PRICES.get,
      event_publish: per(events.published) * PRICES.snsPublish,
      lambda: invocationsPer * PRICES.lambdaRequest + gbs * PRICES.lambdaGbSecondArm,
    };
    const total = Object.values(dollars).reduce((a, b) => a + b, 0);
    const bySteps = (pick: (m: Meter) => number) => Object.fromEntries(STEPS.map((s) => [s, round(per(pick(meters[s])), 3)])) as Record<Step, number>;
    return {
      recipients: N,
      scheduled: scheduledFor !== undefined,
      html_kb: round(Buffer.byteLength(html) / 1024, 1),
      api_ms: round(apiMs, 0),
      outbox_mails: outboxMails,
      overhead_pct: round((total / SES_PRICE_PER_MAIL) * 100, 2),
      dollars_per_1000_mails: round(total * 1000, 5),
      write_units_per_recipient: round(write, 3),
      read_units_per_recipient: round(read, 3),
      write_units_by_step: bySteps((m) => m.write),
      read_units_by_step: bySteps((m) => m.read),
      dynamodb_requests_per_recipient: round(per(sum((m) => m.requests)), 3),
      sqs_requests_per_recipient: round(sqsRequests, 3),
      s3_requests_per_recipient: { put: round(per(s3.put), 4), get: round(per(s3.get), 4) },
      event_publishes_per_recipient: round(per(events.published), 3),
      lambda_invocations_per_recipient: round(invocationsPer, 4),
      lambda_invocations: invocations,
      lambda_gb_seconds_per_recipient: round(gbs, 5),
      lambda_ms_per_recipient: Object.fromEntries(STEPS.map((s) => [s, round(per(ms[s]), 2)])) as Record<Step, number>,
      memory_mb: options.memory,
      dollars_by_part_per_1000_mails: {
        dynamodb: round(dollars.dynamodb * 1000, 5),
        sqs: round(dollars.sqs * 1000, 5),
        s3: round(dollars.s3 * 1000, 6),
        event_publish: round(dollars.event_publish * 1000, 5),
        lambda: round(dollars.lambda * 1000, 5),
      },
    };
  } finally {
    overrideServices(original);
    sqs.destroy();
  }
}

/**
 * `npm run bench`'s batch part: one batch of the scale's recipients (bench/scale.ts: 1,000 small,
 * 10,000 full) in a cloud of its own; sets `batch` in bench/results.json and prints it.
 */
export async function runBatchBench(): Promise<void> {
  const { DEFAULT_MEMORY_MB } = await import('../lib/project-function');
  const recipients = scalePlan().batch_recipients;
  const memory = Object.fromEntries(STEPS.map((s) => [s, DEFAULT_MEMORY_MB])) as unknown as BatchFunctionMemory;
  const batch = await withBenchCloud((cloud) => measureBatch(cloud, { recipients, memory }), { name: 'bench-batch' });
  writeResults('batch', batch);

  const steps = (r: Record<Step, number>) => STEPS.map((s) => r[s]).join(' / ');
  const rows: [string, string][] = [
    ['recipients (one batch)', `${batch.recipients} (${batch.html_kb} KB HTML), ${batch.outbox_mails} in the outbox`],
    ['API handler time (goal < 2 s)', `${batch.api_ms} ms`],
    ['write units per recipient (API / fan-out / worker / events)', `${batch.write_units_per_recipient} (${steps(batch.write_units_by_step)})`],
    ['read units per recipient (API / fan-out / worker / events)', `${batch.read_units_per_recipient} (${steps(batch.read_units_by_step)})`],
    ['DynamoDB requests per recipient', String(batch.dynamodb_requests_per_recipient)],
    ['SQS requests per recipient', String(batch.sqs_requests_per_recipient)],
    ['S3 requests per recipient (PUT / GET)', `${batch.s3_requests_per_recipient.put} / ${batch.s3_requests_per_recipient.get}`],
    ['SES event publishes per recipient', String(batch.event_publishes_per_recipient)],
    ['Lambda invocations per recipient', `${batch.lambda_invocations_per_recipient} (${steps(batch.lambda_invocations)})`],
    ['Lambda GB-seconds per recipient', `${batch.lambda_gb_seconds_per_recipient} (ms: ${steps(batch.lambda_ms_per_recipient)})`],
    ['$ per 1,000 mails: DynamoDB / SQS / S3 / events / Lambda', Object.values(batch.dollars_by_part_per_1000_mails).map((d) => `$${d}`).join(' / ')],
    ['overhead through delivered (goal <= 2%)', `$${batch.dollars_per_1000_mails} per 1,000 mails = ${batch.overhead_pct}% of SES`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log('\nMailroom benchmark: cost per batch recipient\n');
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  console.log(`\n  written to ${path.relative(process.cwd(), RESULTS_FILE)} (batch)\n`);
}
