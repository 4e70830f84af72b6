/**
 * Handler CPU per request for the endpoints and workers: the real handlers invoked in this
 * process many times against DynamoDB Local (a Java process of its own, so its CPU is not counted
 * here), with the queue, the mailer and the blob store replaced by in-process recorders (the SQS,
 * SES and S3 emulators run in this process and would be counted). The SDK's DynamoDB work
 * (marshalling, signing, HTTP) is in the figure, as in Lambda; the SQS, SES and S3 calls' share is not.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FileStore, Mailer, OutgoingMail, Queue } from '../shared/platform/core/ports';
import type { QueueName } from '../shared/platform/core/queues';
import { withBenchCloud } from './bench-cloud';
import { scalePlan } from './scale';

/** The functions given a representative event here (one figure each, by the route table's name). */
export const DRIVEN_FUNCTIONS = [
  'send', 'activity', 'templates', 'tracking', 'partner', 'suppressions', 'webhooks', 'leads', 'segments', 'events',
  'batches', 'campaigns', 'docs', 'send-worker', 'ses-events', 'batch-fanout', 'batch-send-worker', 'scheduled-sweep',
] as const;

/**
 * The functions measured for bundle and cold init only, and why: their event needs what this
 * in-process run has not got (DNS, a customer's URL, an object in S3), or a state (a running
 * campaign, a signed page token, a pending import) whose cost depends more on that state than on
 * the handler. printed in the table and kept in bench/results.json as `cpu_note`.
 */
export const INIT_ONLY_FUNCTIONS: Readonly<Record<string, string>> = {
  console: 'serves the console\'s page and files and its sign-in: operator traffic, not per mail',
  domains: 'registers and checks domains through SES identities and DNS',
  pages: 'answers signed verification tokens of a domain being verified',
  links: 'answers signed unsubscribe and view tokens; the tracking figure stands for token checks',
  'scheduled-sends': 'reads a scheduled send: a Get like activity',
  'lead-imports': 'presigns an upload URL and reads progress: Gets',
  'campaign-reports': 'reads a campaign\'s recipients: depends on the campaign',
  'webhook-fanout': 'needs webhook subscriptions; cost is per subscribed URL',
  'webhook-delivery': 'posts to a customer\'s URL (network)',
  'scheduled-send-worker': 'per due send, the send worker\'s work plus one Get',
  'audience-worker': 'evaluates a dynamic segment: measured per lead by the audience benchmark',
  'lead-import-worker': 'reads a CSV from S3: measured per row by the audience benchmark',
  'campaign-engine': 'steps a running campaign: measured per recipient by the campaign benchmark',
  'campaign-export-worker': 'writes a CSV to S3 per campaign: depends on the campaign',
  inbound: 'parses a raw mail stored in S3 by SES',
  'domain-recheck': 'checks pending domains through SES and DNS',
  'dns-sweep': 'resolves customers\' DNS records (network)',
  automations: 'defines automations and reads their runs: operator traffic, not per mail',
  'automation-engine': 'runs automation steps: measured per run and per step by the automation benchmark',
  'automation-sweep': 'queries the automation due index: the scheduled sweep\'s figure stands for it',
  'automation-dates': 'queues date walks once a day per date-triggered automation',
};

/** Blobs kept in memory: the S3 emulator runs in this process, and its CPU would be counted. */
class MemoryBlobs {
  private readonly objects = new Map<string, Buffer>();
  async put(key: string, body: Buffer): Promise<void> {
    this.objects.set(key, body);
  }
  async get(key: string): Promise<Buffer> {
    const body = this.objects.get(key);
    if (!body) throw new Error(`no blob ${key}`);
    return body;
  }
}

process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

const WARMUP = 20;

/** Keeps what the services queue, serialised as SQS would carry it. */
class RecordingQueue implements Queue {
  readonly messages: { queue: QueueName; body: string }[] = [];
  async send(queue: QueueName, body: unknown): Promise<void> {
    this.messages.push({ queue, body: JSON.stringify(body) });
  }
  async sendBatch(queue: QueueName, bodies: unknown[]): Promise<void> {
    for (const body of bodies) await this.send(queue, body);
  }
  async changeVisibility(): Promise<void> {}
  take(queue: QueueName): string[] {
    const bodies = this.messages.filter((m) => m.queue === queue).map((m) => m.body);
    this.messages.splice(0, this.messages.length, ...this.messages.filter((m) => m.queue !== queue));
    return bodies;
  }
}

/** Accepts every mail as SES would, with a message id. */
class RecordingMailer implements Mailer {
  readonly sent: { mail: OutgoingMail; messageId: string }[] = [];
  async sendRaw(mail: OutgoingMail): Promise<{ messageId: string }> {
    const messageId = `bench-${this.sent.length}`;
    this.sent.push({ mail, messageId });
    return { messageId };
  }
}

/** DynamoDB requests made so far by the services' document client. */
let dynamoCalls = 0;

/** CPU milliseconds and DynamoDB requests per call of `run(i)`, after a warm-up (the JIT and the caches a warm Lambda has). */
async function cpuPerCall(count: number, run: (i: number) => Promise<unknown>, warmup = WARMUP): Promise<HandlerCpu> {
  for (let i = 0; i < warmup; i++) await run(i);
  const calls = dynamoCalls;
  const before = process.cpuUsage();
  for (let i = warmup; i < warmup + count; i++) await run(i);
  const used = process.cpuUsage(before);
  return { cpu_ms: (used.user + used.system) / 1000 / count, cpu_user_ms: used.user / 1000 / count, dynamodb_requests: (dynamoCalls - calls) / count };
}

/** What one request (or one mail, one event) costs the handler. */
export interface HandlerCpu {
  cpu_ms: number;
  /** The user-mode part (the rest is the kernel's: socket reads and writes, about 5% here). */
  cpu_user_ms: number;
  dynamodb_requests: number;
}

/** Per mail or per event from a figure measured per batch of `size`. */
function perItem(figure: HandlerCpu, size: number): HandlerCpu {
  return { cpu_ms: figure.cpu_ms / size, cpu_user_ms: figure.cpu_user_ms / size, dynamodb_requests: figure.dynamodb_requests / size };
}

function sqsEvent(bodies: string[]): SQSEvent {
  const Records = bodies.map(
    (body, i) =>
      ({
        messageId: `m-${i}-${Math.random()}`,
        receiptHandle: `r-${i}`,
        body,
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'bench', ApproximateFirstReceiveTimestamp: String(Date.now()) },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:bench',
        awsRegion: 'us-east-1',
      }) as SQSRecord,
  );
  return { Records };
}

/** Measures handler CPU per request; returns milliseconds by function name. */
export async function measureHandlerCpu(): Promise<Record<string, HandlerCpu>> {
  const REQUESTS = scalePlan().function_cpu_requests;
  const { lambdaContext } = await import('../local/lambda-context');
  const { simulatedEvents } = await import('../local/mailbox-simulator');
  const { overrideServices, resetServices, services } = await import('../composition/services');
  const { QueueEventPublisher } = await import('../shared/platform/adapters/queue-event-publisher');
  const { endpointGroups, schedules, workers } = await import('../shared/platform/core/routes');
  // Another bench in this process may have replaced services over a cloud that is gone.
  resetServices();
  return withBenchCloud(async (cloud) => {
    const queue = new RecordingQueue();
    const mailer = new RecordingMailer();
    overrideServices({ queue, mailer, events: new QueueEventPublisher(queue), blobs: new MemoryBlobs() as unknown as FileStore });
    services().db.doc.middlewareStack.add((next) => (args) => ((dynamoCalls += 1), next(args)), { step: 'initialize', name: 'benchCallCounter' });
    const load = async (entry: string) => (await import(path.join(__dirname, '..', entry))).handler;

    type Api = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
    const api = (handler: Api, method: string, route: string, rawPath: string, body?: unknown, params?: Record<string, string>, apiKey = cloud.seed.live_key) => {
      const context = lambdaContext('bench');
      const key = `${method} ${route}`;
      return handler(
        {
          version: '2.0',
          routeKey: key,
          rawPath,
          rawQueryString: '',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', host: 'localhost' },
          pathParameters: params,
          requestContext: {
            accountId: '000000000000',
            apiId: 'bench',
            domainName: 'localhost',
            domainPrefix: 'bench',
            http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
            requestId: context.awsRequestId,
            routeKey: key,
            stage: '$default',
            time: new Date().toISOString(),
            timeEpoch: Date.now(),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          isBase64Encoded: false,
        },
        context,
      );
    };
    const ok = (res: APIGatewayProxyStructuredResultV2) => {
      if ((res.statusCode ?? 500) >= 300) throw new Error(`bench request answered ${res.statusCode}: ${res.body}`);
      return JSON.parse(res.body ?? '{}') as Record<string, unknown>;
    };
    // The sample order confirmation, with one link for the click measure.
    const html = fs.readFileSync(path.join(__dirname, 'sample-mail.html'), 'utf8').replace('</body>', '<p><a href="https://example.com/orders">Your orders</a></p></body>');
    const figures: Record<string, HandlerCpu> = {};

    const send = await load(endpointGroups.send.entry);
    const ids: string[] = [];
    figures.send = await cpuPerCall(REQUESTS, async (i) => {
      const body = { recipient_email: `reader${i}@example.com`, sender_email: cloud.seed.sender_email, subject: `Bench ${i}`, html_body: html };
      ids.push(String(ok(await api(send, 'POST', '/v1/send-email', '/v1/send-email', body)).email_id));
    });

    const activity = await load(endpointGroups.activity.entry);
    figures.activity = await cpuPerCall(REQUESTS, async (i) => {
      ok(await api(activity, 'GET', '/v1/activity/{id}', `/v1/activity/${ids[i % ids.length]}`, undefined, { id: ids[i % ids.length] }));
    });

    const templates = await load(endpointGroups.templates.entry);
    figures.templates = await cpuPerCall(REQUESTS, async (i) => {
      ok(await api(templates, 'POST', '/v1/templates', '/v1/templates', { name: `Bench ${i}`, subject: 'Hello {{name}}', html: '<p>Hi {{name}}</p>' }));
    });

    // Workers: per mail and per event, in the batches of 10 the event source delivers.
    const jobs = queue.take('send');
    const sendWorker = await load(workers['send-worker'].entry);
    const perMailWorker = await cpuPerCall(Math.floor(jobs.length / 10) - 2, (b) => sendWorker(sqsEvent(jobs.slice(b * 10, b * 10 + 10))), 2);
    figures['send-worker'] = perItem(perMailWorker, 10);

    // Opens and clicks of the mails the worker sent, by signed token as a tracked mail's links carry them.
    const { clickToken, openToken } = await import('../shared/mail-pipeline/tracking/tracking-tokens');
    const { extractLinks } = await import('../shared/mail-pipeline/tracking/rewrite-html');
    const link = extractLinks(html)[0];
    const secret = await services().tokenSecret();
    const tracking = await load(endpointGroups.tracking.entry);
    const served = (res: APIGatewayProxyStructuredResultV2) => {
      if ((res.statusCode ?? 500) >= 400) throw new Error(`tracking answered ${res.statusCode}`);
    };
    const openMs = await cpuPerCall(REQUESTS, async (i) => {
      const token = openToken(ids[i % ids.length], secret);
      served(await api(tracking, 'GET', '/t/o/{token}', `/t/o/${token}`, undefined, { token }));
    });
    const clickMs = await cpuPerCall(REQUESTS, async (i) => {
      const token = clickToken(ids[i % ids.length], 0, link, secret);
      served(await api(tracking, 'GET', '/t/c/{token}', `/t/c/${token}`, undefined, { token }));
    });
    // One figure per function: the mean of its two requests (the console shows each).
    figures.tracking = { cpu_ms: (openMs.cpu_ms + clickMs.cpu_ms) / 2, cpu_user_ms: (openMs.cpu_user_ms + clickMs.cpu_user_ms) / 2, dynamodb_requests: (openMs.dynamodb_requests + clickMs.dynamodb_requests) / 2 };
    console.log(`tracking: open ${openMs.cpu_ms.toFixed(2)} ms, click ${clickMs.cpu_ms.toFixed(2)} ms CPU per request`);

    const deliveries = mailer.sent.flatMap(({ mail, messageId }) =>
      simulatedEvents(
        { FromEmailAddress: mail.from, Destination: { ToAddresses: [...mail.recipients] }, EmailTags: Object.entries(mail.tags).map(([Name, Value]) => ({ Name, Value })) },
        messageId,
        new Date(),
      )
        .filter((event) => event.eventType === 'Delivery')
        .map((event) => JSON.stringify(event)),
    );
    const sesEvents = await load(workers['ses-events'].entry);
    const perEventBatch = await cpuPerCall(Math.floor(deliveries.length / 10) - 2, (b) => sesEvents(sqsEvent(deliveries.slice(b * 10, b * 10 + 10))), 2);
    figures['ses-events'] = perItem(perEventBatch, 10);

    // The other endpoint groups: one representative request each, a list or a write as users make them.
    const get = async (group: keyof typeof endpointGroups, rawPath: string, key?: string) => {
      const handler = await load(endpointGroups[group].entry);
      return cpuPerCall(REQUESTS, async () => ok(await api(handler, 'GET', rawPath, rawPath, undefined, undefined, key)));
    };
    figures.partner = await get('partner', '/v1/partner/whoami', cloud.seed.partner_key);
    figures.suppressions = await get('suppressions', '/v1/suppressions');
    figures.webhooks = await get('webhooks', '/v1/webhooks/secret');
    figures.segments = await get('segments', '/v1/segments');
    figures.campaigns = await get('campaigns', '/v1/campaigns');
    figures.docs = await get('docs', '/openapi.json');
    const leads = await load(endpointGroups.leads.entry);
    figures.leads = await cpuPerCall(REQUESTS, async (i) => {
      ok(await api(leads, 'POST', '/v1/leads', '/v1/leads', { email: `lead${i}@example.com`, first_name: `Lead ${i}` }));
    });
    const events = await load(endpointGroups.events.entry);
    figures.events = await cpuPerCall(REQUESTS, async (i) => {
      ok(await api(events, 'POST', '/v1/events', '/v1/events', { email: `lead${i % 50}@example.com`, event: 'purchase', properties: { plan: 'pro' } }));
    });

    // Batches: a 10-recipient POST per request; then its fan-out and its mails, per recipient.
    const BATCH = 10;
    const batches = await load(endpointGroups.batches.entry);
    const batchRequests = Math.max(10, Math.floor(REQUESTS / 4));
    figures.batches = await cpuPerCall(batchRequests, async (i) => {
      const recipients = Array.from({ length: BATCH }, (_, r) => ({ email: `batch${i}-${r}@example.com`, data: { name: `Reader ${r}` } }));
      ok(await api(batches, 'POST', '/v1/send-batch', '/v1/send-batch', { sender: cloud.seed.sender_email, subject: 'Hello {{name}}', html, email_type: 'marketing', recipients }));
    }, 5);
    const chunks = queue.take('fanout');
    const fanout = await load(workers['batch-fanout'].entry);
    figures['batch-fanout'] = perItem(await cpuPerCall(chunks.length - 5, (c) => fanout(sqsEvent([chunks[c]])), 5), BATCH);
    // A job carries several recipients (batch-jobs.ts); the figure is per recipient, over the measured jobs.
    const batchJobs = queue.take('batch-send');
    const batchSend = await load(workers['batch-send-worker'].entry);
    const WARM_JOBS = 5;
    const perJob = await cpuPerCall(batchJobs.length - WARM_JOBS, (j) => batchSend(sqsEvent([batchJobs[j]])), WARM_JOBS);
    const measured = batchJobs.slice(WARM_JOBS).map((body) => (JSON.parse(body) as { recipients: unknown[] }).recipients.length);
    figures['batch-send-worker'] = perItem(perJob, measured.reduce((a, b) => a + b, 0) / measured.length);
    queue.take('events');

    // A scheduled job's tick with nothing due: what it costs every minute.
    const sweep = await load(schedules['scheduled-sweep'].entry);
    figures['scheduled-sweep'] = await cpuPerCall(REQUESTS, () => sweep({}, lambdaContext('bench')));

    const missing = DRIVEN_FUNCTIONS.filter((name) => !figures[name]);
    if (missing.length > 0) throw new Error(`No handler CPU figure for ${missing.join(', ')}`);
    return figures;
  }, { name: 'cpu' });
}

if (require.main === module) {
  measureHandlerCpu()
    .then((figures) => console.log(figures))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
