/**
 * `npm run bench`: what one mail costs in the pieces AWS bills per request, measured against the
 * local cloud. DynamoDB Local reports consumed capacity exactly as DynamoDB does, so the write
 * units here are the ones a deployment pays for. Also reports API latency and worker time per mail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient, type ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const MAILS = Number(process.env.BENCH_MAILS ?? 300);
// Prices in us-east-1 (on-demand), for the per-mail comparison with SES's $0.10 per 1,000.
const PRICE = { wcu: 0.625 / 1e6, rcu: 0.125 / 1e6, sqs: 0.4 / 1e6, sns: 0.5 / 1e6, ses: 0.1 / 1000 };

interface Meter {
  write: number;
  read: number;
}

const WRITE_COMMANDS = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);

/** A DynamoDB client that asks for consumed capacity on every call and adds it to `meter`. */
function instrumentedClient(meter: Meter): DynamoDBClient {
  const client = new DynamoDBClient({});
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity;
      const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (WRITE_COMMANDS.has(context.commandName ?? '')) meter.write += units;
      else meter.read += units;
      return result;
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  return client;
}

async function main(): Promise<void> {
  const { startLocalCloud } = await import('../local/cloud');
  const { overrideServices, services } = await import('../shared/container');
  const { createDocumentClient } = await import('../shared/store/client');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-'));
  const cloud = await startLocalCloud({ dataDir, persist: false, ports: { api: 0, dynamodb: 0, sqs: 0, ses: 0, s3: 0 }, workers: false });
  try {
    const apiMeter: Meter = { write: 0, read: 0 };
    const workerMeter: Meter = { write: 0, read: 0 };
    const tableName = services().db.tableName;
    const sqs = new SQSClient({});
    const html = fs.readFileSync(path.join(__dirname, 'sample-mail.html'), 'utf8');

    // Phase 1: the API accepts MAILS single sends.
    overrideServices({ db: { doc: createDocumentClient(instrumentedClient(apiMeter)), tableName } });
    const latencies: number[] = [];
    for (let i = 0; i < MAILS; i++) {
      const started = performance.now();
      const res = await fetch(`${cloud.baseUrl}/v1/send-email`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cloud.seed.live_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ recipient_email: `reader${i}@example.com`, sender_email: cloud.seed.sender_email, subject: `Bench ${i}`, html_body: html }),
      });
      latencies.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`send ${i} answered ${res.status}: ${await res.text()}`);
    }

    // Phase 2: the worker drains the queue in batches of 10, as the Lambda event source would.
    overrideServices({ db: { doc: createDocumentClient(instrumentedClient(workerMeter)), tableName } });
    const { handler } = await import('../functions/send-worker/handler');
    let processed = 0;
    let receives = 0;
    let workerMs = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    while (processed < MAILS) {
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls.send, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      receives++;
      const messages = out.Messages ?? [];
      if (messages.length === 0) continue;
      const event = { Records: messages.map((m) => ({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body })) } as unknown as SQSEvent;
      const started = performance.now();
      const result = (await handler(event)) as { batchItemFailures: unknown[] };
      workerMs += performance.now() - started;
      if (result.batchItemFailures.length > 0) throw new Error('worker reported failures');
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: cloud.queueUrls.send, Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
      processed += messages.length;
    }
    const heapAfter = process.memoryUsage().heapUsed;

    // Phase 3: the SES events the mailbox simulator published (Send and Delivery per mail), applied
    // by the ses-events worker. In AWS only Delivery is published by default (see lib/ses-events.ts).
    const eventMeter: Meter = { write: 0, read: 0 };
    overrideServices({ db: { doc: createDocumentClient(instrumentedClient(eventMeter)), tableName } });
    const { handler: sesEvents } = await import('../functions/ses-events/handler');
    let events = 0;
    for (let idle = 0; idle < 3; ) {
      const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: cloud.queueUrls['ses-events'], MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
      const messages = out.Messages ?? [];
      if (messages.length === 0) {
        idle++;
        continue;
      }
      const batch = { Records: messages.map((m) => ({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body })) } as unknown as SQSEvent;
      await sesEvents(batch);
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: cloud.queueUrls['ses-events'], Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
      events += messages.length;
    }

    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
    const wcu = (apiMeter.write + workerMeter.write) / MAILS;
    const lifeWcu = wcu + eventMeter.write / MAILS;
    const rcu = (apiMeter.read + workerMeter.read) / MAILS;
    // Send (1 per mail from the API) + receive and delete batched by 10 on the worker side.
    const sqsRequests = 1 + (2 * Math.ceil(MAILS / 10)) / MAILS;
    // Through delivered: the Delivery event adds an SNS publish and a queue message (received and
    // deleted in batches of 10) to the mail's own requests.
    const eventRequests = 1 + (2 * Math.ceil(MAILS / 10)) / MAILS;
    const lifeRcu = rcu + eventMeter.read / MAILS;
    const dollars = lifeWcu * PRICE.wcu + lifeRcu * PRICE.rcu + (sqsRequests + eventRequests) * PRICE.sqs + PRICE.sns;
    const rows: [string, string][] = [
      ['mails', String(MAILS)],
      ['html body', `${(Buffer.byteLength(html) / 1024).toFixed(1)} KB`],
      ['API: write units per mail', (apiMeter.write / MAILS).toFixed(2)],
      ['API: read units per mail', (apiMeter.read / MAILS).toFixed(2)],
      ['worker: write units per mail', (workerMeter.write / MAILS).toFixed(2)],
      ['worker: read units per mail', (workerMeter.read / MAILS).toFixed(2)],
      ['total write units per mail (through sent)', wcu.toFixed(2)],
      ['SES events applied (Send + Delivery per mail)', String(events)],
      ['events: write units per mail', (eventMeter.write / MAILS).toFixed(2)],
      ['events: read units per mail', (eventMeter.read / MAILS).toFixed(2)],
      ['total write units per mail (through delivered)', lifeWcu.toFixed(2)],
      ['SQS requests per mail', sqsRequests.toFixed(2)],
      ['DynamoDB + SQS + SNS $ per 1,000 mails (through delivered)', `$${(dollars * 1000).toFixed(5)} (${((dollars / PRICE.ses) * 100).toFixed(2)}% of SES)`],
      ['API latency p50 / p95 (local)', `${pct(50)} ms / ${pct(95)} ms`],
      ['worker time per mail (batches of 10, local)', `${(workerMs / MAILS).toFixed(1)} ms`],
      ['worker heap growth', `${((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)} MB`],
      ['receive calls (incl. empty)', String(receives)],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log('\nMailroom benchmark: cost and speed per mail\n');
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    console.log('');
    sqs.destroy();
  } finally {
    await cloud.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main()
  // Per function: bundle size, cold init and handler CPU (bench/functions.ts).
  .then(async () => (await import('./functions')).runFunctionBench())
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
