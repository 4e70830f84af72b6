/**
 * What one single API send costs in the pieces AWS bills per request, measured against a running
 * local cloud (started without its own workers). DynamoDB Local reports consumed capacity exactly as
 * DynamoDB does, index writes included, so the units here are the ones a deployment pays for.
 * Used by `npm run bench` (bench/run.ts) and by the budget smoke test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient, type ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import type { LocalCloud } from '../local/cloud';
import { PRICES, SES_PRICE_PER_MAIL } from './prices';
import { asFunction } from '../local/iam/function-roles';

/** Memory (MB) of each function on the single-send path, as lib/ configures it. */
export interface FunctionMemory {
  send: number;
  'send-worker': number;
  'ses-events': number;
}

/** DynamoDB units and requests counted by a metered client. */
export interface Meter {
  write: number;
  read: number;
  requests: number;
}

const WRITE_COMMANDS = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

/** SES event types a deployment publishes by default (lib/ses-events.ts); the simulator also emits Send. */
export const PUBLISHED_EVENT_TYPES = new Set(['Delivery', 'Bounce', 'Complaint', 'Reject', 'Rendering Failure', 'DeliveryDelay', 'Subscription']);

/** A DynamoDB client that asks for consumed capacity on every call and adds it to `meter`. */
export function meteredDynamo(meter: Meter): DynamoDBClient {
  const client = new DynamoDBClient({});
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      meter.requests++;
      if (WRITE_COMMANDS.has(context.commandName ?? '')) meter.write += units;
      else meter.read += units;
      return result;
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  return client;
}

/** An SQS client that counts its requests (each SendMessage and SendMessageBatch is one billed request). */
export function meteredSqs(counter: { requests: number }): SQSClient {
  const client = new SQSClient({});
  client.middlewareStack.add(
    (next) => async (args) => {
      counter.requests++;
      return next(args);
    },
    { step: 'initialize', name: 'benchRequestCounter' },
  );
  return client;
}

/** Lambda gives a function one full vCPU at 1,769 MB, and CPU in proportion to memory below that. */
const FULL_VCPU_MB = 1769;

/** Memory sizes compared when choosing by cost per mail. */
export const MEMORY_OPTIONS = [128, 256, 512, 1024, 1769] as const;

/** One function's estimated time and cost per mail at one memory size. */
export interface MemoryEstimate {
  memory_mb: number;
  ms_per_mail: number;
  gb_seconds_per_mail: number;
  dollars_per_million_mails: number;
}

/**
 * What a function's measured time per mail becomes at other memory sizes: its CPU part (measured
 * here on one core) stretches as Lambda's CPU share shrinks, its waiting part (DynamoDB, SQS, SES)
 * does not. A model, not a measurement in Lambda: it says which way memory moves the cost.
 */
export function memoryEstimates(cpuMsPerMail: number, wallMsPerMail: number, sizes: readonly number[] = MEMORY_OPTIONS): MemoryEstimate[] {
  const waiting = Math.max(0, wallMsPerMail - cpuMsPerMail);
  return sizes.map((memory) => {
    const ms = cpuMsPerMail * Math.max(1, FULL_VCPU_MB / memory) + waiting;
    const gbs = (ms / 1000) * (memory / 1024);
    return { memory_mb: memory, ms_per_mail: round(ms, 1), gb_seconds_per_mail: round(gbs, 5), dollars_per_million_mails: round(gbs * PRICES.lambdaGbSecondArm * 1e6, 3) };
  });
}

/** CPU milliseconds this process spent since `since` (process.cpuUsage). */
export const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

export interface SingleSendResult {
  mails: number;
  html_kb: number;
  overhead_pct: number;
  dollars_per_1000_mails: number;
  write_units_per_mail: number;
  read_units_per_mail: number;
  write_units_by_step: { api: number; worker: number; events: number };
  read_units_by_step: { api: number; worker: number; events: number };
  dynamodb_requests_per_mail: number;
  sqs_requests_per_mail: number;
  event_publishes_per_mail: number;
  lambda_invocations_per_mail: number;
  /** At each function's configured memory, from the model (the local core is faster than Lambda's share of one). */
  lambda_gb_seconds_per_mail: number;
  /** Wall time measured locally, on a full core. */
  lambda_ms_per_mail: { send: number; 'send-worker': number; 'ses-events': number };
  /** CPU of this process while each step ran (it also runs the local API server and some emulators: an upper bound). */
  cpu_ms_per_mail: { send: number; 'send-worker': number; 'ses-events': number };
  /** Each function's time and cost per mail at other memory sizes (see memoryEstimates). */
  memory_model: { send: MemoryEstimate[]; 'send-worker': MemoryEstimate[]; 'ses-events': MemoryEstimate[] };
  memory_mb: FunctionMemory;
  dollars_by_part_per_1000_mails: { dynamodb: number; sqs: number; event_publish: number; lambda: number };
  api_gateway_pct: number;
  api_latency_ms: { p50: number; p95: number };
}

/**
 * Sends `mails` single sends through the API, drains the send queue with the real worker in batches
 * of 10 (as the Lambda event source does), then applies the SES events a deployment publishes
 * (Delivery for these mails) with the real ses-events worker. Returns the per-mail figures.
 */
export async function measureSingleSends(cloud: LocalCloud, options: { mails: number; memory: FunctionMemory }): Promise<SingleSendResult> {
  const { overrideServices, services } = await import('../composition/services');
  const { createDocumentClient } = await import('../shared/platform/store/client');
  const { SqsQueue } = await import('../shared/platform/adapters/sqs-queue');
  const { QueueEventPublisher } = await import('../shared/platform/adapters/queue-event-publisher');
  const MAILS = options.mails;
  const tableName = services().db.tableName;
  const original = services();
  const sqs = new SQSClient({});
  const queueRequests = { requests: 0 };
  const queue = SqsQueue.fromConfig(meteredSqs(queueRequests), services().config);
  const html = fs.readFileSync(path.join(__dirname, 'sample-mail.html'), 'utf8');
  const use = (meter: Meter) => overrideServices({ db: { doc: createDocumentClient(meteredDynamo(meter)), tableName }, queue, events: new QueueEventPublisher(queue) });

  try {
    // Phase 1: the API accepts the sends.
    const api: Meter = { write: 0, read: 0, requests: 0 };
    use(api);
    const latencies: number[] = [];
    let apiCpu = 0;
    for (let i = 0; i < MAILS; i++) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const res = await fetch(`${cloud.baseUrl}/v1/send-email`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cloud.seed.live_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ recipient_email: `reader${i}@example.com`, sender_email: cloud.seed.sender_email, subject: `Bench ${i}`, html_body: html }),
      });
      const ms = performance.now() - started;
      apiCpu += cpuMsSince(cpu);
      latencies.push(ms);
      if (res.status !== 200) throw new Error(`send ${i} answered ${res.status}: ${await res.text()}`);
    }

    // Phase 2: the worker drains the queue in batches of 10, as the Lambda event source would.
    const worker: Meter = { write: 0, read: 0, requests: 0 };
    use(worker);
    const handler = asFunction('send-worker', (await import('../functions/send-worker/handler')).handler);
    let processed = 0;
    let workerInvocations = 0;
    let workerMs = 0;
    let workerCpu = 0;
    let pollRequests = 0;
    while (processed < MAILS) {
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.send, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      const messages = out.Messages ?? [];
      if (messages.length === 0) continue;
      const event = { Records: messages.map((m) => ({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body })) } as unknown as SQSEvent;
      const started = performance.now();
      const cpu = process.cpuUsage();
      const result = (await handler(event)) as { batchItemFailures: unknown[] };
      const ms = performance.now() - started;
      workerCpu += cpuMsSince(cpu);
      workerMs += ms;
      workerInvocations++;
      if (result.batchItemFailures.length > 0) throw new Error('worker reported failures');
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: cloud.queueUrls.send, Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
      pollRequests += 2;
      processed += messages.length;
    }

    // Phase 3: the SES events a deployment publishes, applied by the real worker.
    const events: Meter = { write: 0, read: 0, requests: 0 };
    use(events);
    const applied = await applyPublishedSesEvents(cloud, sqs);
    const { invocations: eventInvocations, ms: eventMs, cpu: eventCpu } = applied;

    const perMail = (n: number) => n / MAILS;
    const write = perMail(api.write + worker.write + events.write);
    const read = perMail(api.read + worker.read + events.read);
    // Each published event is one SNS publish, one message put on the queue (by SNS), and its
    // share of a batched receive and delete.
    const eventPublishes = perMail(applied.published);
    const sqsRequests = perMail(queueRequests.requests + pollRequests + applied.published + 2 * eventInvocations);
    const invocations = perMail(MAILS + workerInvocations + eventInvocations);
    // Measured here on a full core; at the configured memory Lambda gives less CPU (memoryEstimates).
    const apiWall = perMail(latencies.reduce((sum, x) => sum + x, 0));
    const model = {
      send: memoryEstimates(perMail(apiCpu), apiWall),
      'send-worker': memoryEstimates(perMail(workerCpu), perMail(workerMs)),
      'ses-events': memoryEstimates(perMail(eventCpu), perMail(eventMs)),
    };
    const gbs =
      memoryEstimates(perMail(apiCpu), apiWall, [options.memory.send])[0].gb_seconds_per_mail +
      memoryEstimates(perMail(workerCpu), perMail(workerMs), [options.memory['send-worker']])[0].gb_seconds_per_mail +
      memoryEstimates(perMail(eventCpu), perMail(eventMs), [options.memory['ses-events']])[0].gb_seconds_per_mail;
    const dollars = {
      dynamodb: write * PRICES.dynamodbWriteUnit + read * PRICES.dynamodbReadUnit,
      sqs: sqsRequests * PRICES.sqsRequest,
      event_publish: eventPublishes * PRICES.snsPublish,
      lambda: invocations * PRICES.lambdaRequest + gbs * PRICES.lambdaGbSecondArm,
    };
    const total = dollars.dynamodb + dollars.sqs + dollars.event_publish + dollars.lambda;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))], 1);
    return {
      mails: MAILS,
      html_kb: round(Buffer.byteLength(html) / 1024, 1),
      overhead_pct: round((total / SES_PRICE_PER_MAIL) * 100, 2),
      dollars_per_1000_mails: round(total * 1000, 5),
      write_units_per_mail: round(write, 2),
      read_units_per_mail: round(read, 2),
      write_units_by_step: { api: round(perMail(api.write), 2), worker: round(perMail(worker.write), 2), events: round(perMail(events.write), 2) },
      read_units_by_step: { api: round(perMail(api.read), 2), worker: round(perMail(worker.read), 2), events: round(perMail(events.read), 2) },
      dynamodb_requests_per_mail: round(perMail(api.requests + worker.requests + events.requests), 2),
      sqs_requests_per_mail: round(sqsRequests, 2),
      event_publishes_per_mail: round(eventPublishes, 2),
      lambda_invocations_per_mail: round(invocations, 2),
      lambda_gb_seconds_per_mail: round(gbs, 5),
      lambda_ms_per_mail: { send: round(apiWall, 1), 'send-worker': round(perMail(workerMs), 1), 'ses-events': round(perMail(eventMs), 1) },
      cpu_ms_per_mail: { send: round(perMail(apiCpu), 1), 'send-worker': round(perMail(workerCpu), 1), 'ses-events': round(perMail(eventCpu), 1) },
      memory_model: model,
      memory_mb: options.memory,
      dollars_by_part_per_1000_mails: {
        dynamodb: round(dollars.dynamodb * 1000, 5),
        sqs: round(dollars.sqs * 1000, 5),
        event_publish: round(dollars.event_publish * 1000, 5),
        lambda: round(dollars.lambda * 1000, 5),
      },
      api_gateway_pct: round((PRICES.apiGatewayHttpRequest / SES_PRICE_PER_MAIL) * 100, 2),
      api_latency_ms: { p50: pct(50), p95: pct(95) },
    };
  } finally {
    overrideServices(original);
    sqs.destroy();
  }
}

/** What applying the SES events cost the ses-events worker. */
export interface AppliedEvents {
  /** Events a deployment would have published (each one SNS publish). */
  published: number;
  invocations: number;
  ms: number;
  cpu: number;
}

/**
 * Drains the ses-events queue, applying the events a deployment publishes with the real ses-events
 * worker as they are received (ten to an invocation, so a 100,000-recipient run never holds its
 * 200,000 events). The simulator publishes Send too; a deployment does not (see lib/ses-events.ts),
 * so those are deleted unapplied and not counted.
 */
export async function applyPublishedSesEvents(cloud: LocalCloud, sqs: SQSClient): Promise<AppliedEvents> {
  const sesEvents = asFunction('ses-events', (await import('../functions/ses-events/handler')).handler);
  const applied: AppliedEvents = { published: 0, invocations: 0, ms: 0, cpu: 0 };
  const pending: { messageId?: string; receiptHandle?: string; body?: string }[] = [];
  const apply = async (records: typeof pending) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await sesEvents({ Records: records } as unknown as SQSEvent);
    applied.ms += performance.now() - started;
    applied.cpu += cpuMsSince(cpu);
    applied.invocations++;
  };
  // Done when the queue is empty and the cloud is not busy (every event the simulator publishes has
  // reached the queue), twice in a row, rather than after seconds of empty polls.
  for (let quiet = 0; quiet < 2; ) {
    const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls['ses-events'], MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    const messages = out.Messages ?? [];
    if (messages.length === 0) {
      quiet = (await cloud.busy()) ? 0 : quiet + 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    quiet = 0;
    for (const m of messages) {
      if (!PUBLISHED_EVENT_TYPES.has(String((JSON.parse(m.Body ?? '{}') as { eventType?: string }).eventType))) continue;
      pending.push({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body });
      applied.published++;
    }
    // Gathered ten to an invocation, as an event source mapping with a batching window would.
    while (pending.length >= 10) await apply(pending.splice(0, 10));
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: cloud.queueUrls['ses-events'], Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
  }
  if (pending.length > 0) await apply(pending.splice(0));
  return applied;
}

/** `n` rounded to `digits` decimals. */
export function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
