/**
 * What an automation costs per run, and that every run happens whole: `BENCH_AUTOMATION_LEADS` leads
 * (bench/scale.ts: 200 small, 100,000 full) imported through the API into a static segment whose
 * `segment_entered` trigger starts a three-step journey (send a mail, wait, send another): at full
 * scale a minute waited out, at small scale 20 minutes the clock jumps over (bench/scale.ts AUTOMATION_WAIT).
 * The template, the segment and the automation are made through the API; the real workers (the
 * lead-import worker, which reports the segment entries; the automation engine; the send worker;
 * the minute sweep of the due index; then the SES events a deployment publishes) run against a
 * local cloud started without its own workers or schedules, each metered for DynamoDB units and
 * requests and SQS requests. Stops unless the outbox holds exactly two mails per lead, one of each
 * step. Used by `npm run bench` (`automation` in bench/results.json) and, small and with the clock
 * jumped over the wait, by test/integration/automation-cost-budget.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Services } from '../composition/services';
import type { LocalCloud } from '../local/cloud';
import { RESULTS_FILE, withBenchCloud, writeResults } from './bench-cloud';
import { applyPublishedSesEvents, cpuMsSince, MEMORY_OPTIONS, memoryEstimates, meteredSqs, round, type Meter } from './measure';
import { PRICES, SES_PRICE_PER_MAIL } from './prices';
import { AUTOMATION_WAIT, benchScale, scalePlan } from './scale';
import { busiestByPattern, meteredTable, newWriteMap, type WriteMap } from './table-meter';
import { asFunction } from '../local/iam/function-roles';

/**
 * The metered parts: the import's (the API calls that start it, the import worker that creates the
 * leads and reports their segment entries), then the journey's. The engine's `enter` messages (entry,
 * first mail, start of the wait) and its `step` messages (the wake, second mail, completion) are
 * handed to it in separate invocations, so that each is metered apart.
 */
const PARTS = ['api', 'lead-import-worker', 'engine-enter', 'engine-wake', 'send-worker', 'automation-sweep', 'ses-events'] as const;
type Part = (typeof PARTS)[number];
/** The journey's parts: what the automation costs beyond creating the leads. */
const JOURNEY: readonly Part[] = ['engine-enter', 'engine-wake', 'send-worker', 'automation-sweep', 'ses-events'];
/** The parts by worker, as docs/cost.md names them. */
const WORKERS = { 'lead-import-worker': ['api', 'lead-import-worker'], 'automation-engine': ['engine-enter', 'engine-wake'], 'send-worker': ['send-worker'], 'automation-sweep': ['automation-sweep'], 'ses-events': ['ses-events'] } as const satisfies Record<string, readonly Part[]>;
type Worker = keyof typeof WORKERS;

/** The wait between the two mails: a minute, so that the benchmark ends. */
export const JOURNEY_WAIT = { minutes: 1 } as const;
/**
 * The wait when the clock jumps over it (the `npm test` variant): longer than SQS's 15-minute delay,
 * so the sweep alone wakes each run, as it wakes the days-long waits of real journeys. A one-minute
 * wait would also have its own delayed message, which then arrives after the jump as a stale wake,
 * sooner or later depending on the machine's pace: the figures would move with it.
 */
export const JUMPED_WAIT = { minutes: 20 } as const;
/** The sweep's period (its schedule's `everySeconds`). */
const SWEEP_EVERY_MS = 60_000;

/** Figures of one part per run: DynamoDB units and requests, SQS requests, Lambda invocations. */
export interface PartFigures {
  write_units: number;
  read_units: number;
  dynamodb_requests: number;
  sqs_requests: number;
  invocations: number;
}

export interface AutomationResult {
  leads: number;
  runs_completed: number;
  /** .eml files the local SES wrote for the journey, and leads with other than one mail of each step. */
  outbox_mails: number;
  leads_not_mailed_twice: number;
  /** Messages a worker handed back to be received again (a mail's job queued twice finds its twin mid-send). */
  handed_back: number;
  /** `real` (the bench waits the minute out) or `clock_jumped` (the test moves the services' clock past it). */
  wait_mode: 'real' | 'clock_jumped';
  wait_seconds: number;
  /** Wall time from the import's start until the outbox held all 2N mails (local, one worker at a time). */
  seconds_to_all_mails: number;
  seconds_to_import_done: number;
  seconds_to_first_mails: number;
  /** Time no worker had anything to do (the wait, mostly), and its share of the wall time. */
  idle_seconds: number;
  idle_share: number;
  /** Runs created per second between the first and the last `enter` handled (local, interleaved with the other workers). */
  enrolment_rate_local: number;
  /** Per run, the journey (engine, send worker, sweep, SES events: what the automation adds to the leads' import). */
  write_units_per_run: number;
  read_units_per_run: number;
  dynamodb_requests_per_run: number;
  sqs_requests_per_run: number;
  lambda_invocations_per_run: number;
  lambda_gb_seconds_per_run: number;
  event_publishes_per_run: number;
  /** The same with the import that triggered it (the leads' creation and their segment entries). */
  write_units_per_run_with_import: number;
  /** Per run, each part (`engine-enter`: entry, first mail, start of the wait; `engine-wake`: wake, second mail, completion). */
  per_run_by_part: Record<Part, PartFigures>;
  per_run_by_worker: Record<Worker, PartFigures>;
  /** Local wall time per run of each part (one worker at a time, on a core shared with the emulators). */
  local_ms_per_run_by_part: Record<Part, number>;
  /** Write units and requests per run by the item written (`AUTORUN RUN`, `AUTORUN STEP`, `ACT`...). */
  writes_per_run_by_item: Record<string, { write_units: number; requests: number }>;
  dollars_per_1000_runs: number;
  dollars_by_part_per_1000_runs: { dynamodb: number; sqs: number; event_publish: number; lambda: number };
  /** The two mails' SES price per 1,000 runs, for scale. */
  ses_dollars_per_1000_runs: number;
  engine: {
    enter_invocations: number;
    entrants_per_invocation: number;
    /** Local, on one core shared with the emulators: wall and CPU per entrant, and Lambda's estimate at the function's memory. */
    wall_ms_per_entrant: number;
    cpu_ms_per_entrant: number;
    lambda_ms_per_entrant: number;
    memory_mb: number;
    max_invocation_seconds: number;
    wake_wall_ms_per_run: number;
  };
  /**
   * A million leads entering within a minute (16,667 a second), modelled from the measurement: the
   * engine's time per entrant at Lambda's CPU share of its memory, at the queue's maximum concurrency;
   * and the partitions the entries write that several runs share, at the arrival rate and at the
   * engine's own rate, against a partition's 1,000 writes a second.
   */
  model_1m: {
    max_concurrency: number;
    memory_mb: number;
    lambda_ms_per_entrant: number;
    entrants_per_second: number;
    seconds_to_enrol: number;
    concurrency_for_one_minute: number;
    /** A full batch (ten `enter` messages of 100) against the worker's timeout. */
    full_batch_entrants: number;
    full_batch_seconds: number;
    worker_timeout_seconds: number;
    by_memory: { memory_mb: number; ms_per_entrant: number; seconds_to_enrol: number; full_batch_seconds: number }[];
    arrival_per_second: number;
    busiest_partition: string;
    busiest_writes_per_second_at_arrival: number;
    busiest_writes_per_second_at_engine_rate: number;
    partition_limit_writes_per_second: number;
    /** Each shared partition pattern: writes per run, partitions, the design's share per partition and the measured busiest one's. */
    partitions: { pattern: string; partitions: number; writes_per_run: number; share_per_partition: number; measured_busiest_share: number; writes_per_second_at_arrival: number; writes_per_second_at_engine_rate: number }[];
  };
  /** The most-written partitions of the entries (each pattern's busiest one), measured. */
  enrolment_partitions: { pattern: string; partitions: number; most_writes: number; writes: number }[];
}

/** A CSV of `rows` leads (lead<i>@bench.example), each in `segmentId`, with a name the template reads. */
function writeLeadsCsv(file: string, rows: number, segmentId: string): void {
  const out = fs.openSync(file, 'w');
  try {
    fs.writeSync(out, 'email,name,segment_ids\n');
    for (let from = 0; from < rows; from += 10_000) {
      const lines: string[] = [];
      for (let i = from; i < Math.min(rows, from + 10_000); i++) lines.push(`lead${i}@bench.example,Lead ${i},${segmentId}\n`);
      fs.writeSync(out, lines.join(''));
    }
  } finally {
    fs.closeSync(out);
  }
}

/** The To and Subject of a mail the local SES wrote (its headers only). */
function mailHeaders(file: string): { to: string; subject: string } {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const head = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    return { to: /^To: (.*)$/m.exec(head)?.[1]?.trim() ?? '', subject: /^Subject: (.*)$/m.exec(head)?.[1]?.trim() ?? '' };
  } finally {
    fs.closeSync(fd);
  }
}

const zeroFigures = (): PartFigures => ({ write_units: 0, read_units: 0, dynamodb_requests: 0, sqs_requests: 0, invocations: 0 });

/**
 * Imports `leads` leads into a segment that starts the journey, runs every worker round-robin until
 * the outbox holds both mails of every lead, applies the Delivery events, and returns the figures.
 * `jumpWait`: once every run waits, the services' clock moves past the wait and the sweep wakes
 * them (the path of any wait beyond SQS's 15 minutes), so the run takes seconds, not a minute.
 */
export async function measureAutomation(cloud: LocalCloud, options: { leads: number; memoryMb: number; jumpWait?: boolean }): Promise<AutomationResult> {
  const { overrideServices, services } = await import('../composition/services');
  const { createDocumentClient } = await import('../shared/platform/store/client');
  const { SqsQueue } = await import('../shared/platform/adapters/sqs-queue');
  const { QueueEventPublisher } = await import('../shared/platform/adapters/queue-event-publisher');
  const { getSender } = await import('../shared/identities/domains/sender-repository');
  const { getImport } = await import('../shared/audience/imports/import-repository');
  const { queues } = await import('../shared/platform/core/queues');
  const wait = options.jumpWait ? JUMPED_WAIT : JOURNEY_WAIT;
  const engineMemoryMb = queues.automations.workerMemoryMb ?? options.memoryMb;
  const { WORKER_MAX_CONCURRENCY } = await import('../lib/queue-worker');
  const N = options.leads;
  const original = services();
  const tableName = original.db.tableName;
  const sqs = new SQSClient({});
  const meters = Object.fromEntries(PARTS.map((p) => [p, { write: 0, read: 0, requests: 0 }])) as Record<Part, Meter>;
  const sqsRequests = Object.fromEntries(PARTS.map((p) => [p, { requests: 0 }])) as Record<Part, { requests: number }>;
  const writeMaps = Object.fromEntries(PARTS.map((p) => [p, newWriteMap()])) as Record<Part, WriteMap>;
  // Each part's own services: a table client and a queue, each metered (the events publisher sends on that queue).
  const clients = {} as Record<Part, Pick<Services, 'db' | 'queue' | 'events'>>;
  for (const p of PARTS) {
    const queue = SqsQueue.fromConfig(meteredSqs(sqsRequests[p]), original.config);
    clients[p] = { db: { doc: createDocumentClient(meteredTable(meters[p], writeMaps[p])), tableName }, queue, events: new QueueEventPublisher(queue) };
  }
  const use = (part: Part) => overrideServices(clients[part]);
  const unmetered = () => overrideServices({ db: original.db, queue: original.queue, events: original.events });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-automation-'));
  const outboxBefore = new Set(fs.readdirSync(cloud.outboxDir));
  const freshMails = () => fs.readdirSync(cloud.outboxDir).filter((f) => f.endsWith('.eml') && !outboxBefore.has(f));
  let clockOffsetMs = 0;

  try {
    // Set-up, through the API and unmetered: the template, the static segment, the automation.
    unmetered();
    const projectId = cloud.seed.project_id;
    const key = cloud.seed.live_key;
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${cloud.baseUrl}${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> };
    };
    const check = (what: string, res: { status: number; body: unknown }, status: number) => {
      if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    };
    const html = `<p>Hi {{name}}, welcome aboard.</p>\n${fs.readFileSync(path.join(__dirname, 'sample-mail.html'), 'utf8')}`;
    const template = await api('POST', '/v1/templates', { name: `Bench journey ${Date.now()}`, subject: 'Welcome, {{name}}', html });
    check('template', template, 201);
    const segment = await api('POST', '/v1/segments', { name: `Bench journey ${Date.now()}` });
    check('segment', segment, 201);
    const segmentId = segment.body.segment.id as string;
    const sender = await getSender(original.db, projectId, cloud.seed.sender_email);
    if (!sender) throw new Error('The seeded sender is missing');
    const send = (id: string, extra: Record<string, unknown>) => ({ id, type: 'send_email', template_id: template.body.data.id, sender_profile_id: sender.id, ...extra });
    const created = await api('POST', '/v1/automations', {
      name: `Bench journey of ${N}`,
      trigger: { type: 'segment_entered', segment_id: segmentId },
      steps: [send('welcome', { next: 'pause' }), { id: 'pause', type: 'wait', duration: wait, next: 'follow_up' }, send('follow_up', { subject: 'A minute later, {{name}}' })],
    });
    check('automation', created, 201);
    const automationId = created.body.data.id as string;
    check('activate', await api('POST', `/v1/automations/${automationId}/activate`), 200);
    const file = path.join(dir, 'leads.csv');
    writeLeadsCsv(file, N, segmentId);

    // The import, started through the API: its file PUT to the upload URL, then started.
    use('api');
    const started = performance.now();
    const importing = await api('POST', '/v1/leads/imports', { format: 'csv' });
    check('import', importing, 201);
    const importId = importing.body.import.id as string;
    const put = await fetch(importing.body.upload.url as string, { method: 'PUT', body: fs.readFileSync(file) });
    if (put.status !== 200) throw new Error(`upload: ${put.status}`);
    check('import start', await api('POST', `/v1/leads/imports/${importId}/start`), 202);

    // The workers, each metered, round-robin until the outbox holds both mails of every lead.
    const importWorker = asFunction('lead-import-worker', (await import('../functions/lead-import-worker/handler')).handler);
    const engine = asFunction('automation-engine', (await import('../functions/automation-engine/handler')).handler);
    const sendWorker = asFunction('send-worker', (await import('../functions/send-worker/handler')).handler);
    const sweepAs = asFunction('automation-sweep', (await import('../functions/automation-sweep/handler')).handler);
    const sweep = () => sweepAs(undefined as never);
    const ms = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
    const cpu = { ...ms };
    const invocations = { ...ms };
    let handedBack = 0;
    let entrants = 0;
    let maxEnterMs = 0;
    let firstEnter: number | undefined;
    let lastEnter = 0;
    let importDone: number | undefined;
    let firstMails: number | undefined;
    let lastSweep = performance.now();
    let idleMs = 0;
    let lastWork = Date.now();
    let mails = 0;
    let jumped = false;

    const invoke = async (part: Part, url: string, messages: Message[], handler: (event: SQSEvent) => Promise<unknown>) => {
      use(part);
      const event = { Records: messages.map((m) => ({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body, attributes: { ApproximateReceiveCount: '1' } })) } as unknown as SQSEvent;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const result = (await handler(event)) as SQSBatchResponse | undefined;
      const spent = performance.now() - t0;
      ms[part] += spent;
      cpu[part] += cpuMsSince(c0);
      invocations[part]++;
      // A message handed back comes again after its visibility timeout, as in Lambda.
      const failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      handedBack += failed.size;
      const done = messages.filter((m) => !failed.has(m.MessageId ?? ''));
      if (done.length > 0) {
        await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
        sqsRequests[part].requests++;
      }
      return spent;
    };
    // The event source's receives that bring messages count for the part they feed; its empty polls
    // are a deployment's fixed cost per queue, not a cost per run, and this loop's pace is not Lambda's.
    const receive = async (part: Part | undefined, url: string, max: number) => {
      const messages = (await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: max, WaitTimeSeconds: 0 }))).Messages ?? [];
      if (part && messages.length > 0) sqsRequests[part].requests++;
      return messages;
    };
    const runSweep = async () => {
      use('automation-sweep');
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await sweep();
      ms['automation-sweep'] += performance.now() - t0;
      cpu['automation-sweep'] += cpuMsSince(c0);
      invocations['automation-sweep']++;
      lastSweep = performance.now();
    };

    for (let round_ = 0; mails < 2 * N; round_++) {
      let worked = false;
      const imports = await receive('lead-import-worker', cloud.queueUrls.imports, queues.imports.batchSize);
      if (imports.length > 0) {
        worked = true;
        await invoke('lead-import-worker', cloud.queueUrls.imports, imports, importWorker);
        if (importDone === undefined && (await getImport(original.db, projectId, importId))?.status === 'done') importDone = performance.now();
      }
      const engineMessages = await receive(undefined, cloud.queueUrls.automations, queues.automations.batchSize);
      if (engineMessages.length > 0) {
        worked = true;
        const enters = engineMessages.filter((m) => (JSON.parse(m.Body ?? '{}') as { kind?: string }).kind === 'enter');
        const others = engineMessages.filter((m) => !enters.includes(m));
        // One receive brought both kinds: it counts for the entries when it carried any.
        sqsRequests[enters.length > 0 ? 'engine-enter' : 'engine-wake'].requests++;
        if (enters.length > 0) {
          const now = performance.now();
          firstEnter ??= now;
          const spent = await invoke('engine-enter', cloud.queueUrls.automations, enters, engine);
          maxEnterMs = Math.max(maxEnterMs, spent);
          entrants += enters.reduce((n, m) => n + (JSON.parse(m.Body ?? '{}') as { entrants: unknown[] }).entrants.length, 0);
          lastEnter = performance.now();
        }
        if (others.length > 0) await invoke('engine-wake', cloud.queueUrls.automations, others, engine);
      }
      const sends = await receive('send-worker', cloud.queueUrls.send, queues.send.batchSize);
      if (sends.length > 0) {
        worked = true;
        await invoke('send-worker', cloud.queueUrls.send, sends, sendWorker);
      }
      // Every run waits once all have entered and the queues are empty: then the clock may jump.
      if (options.jumpWait && !jumped && !worked && importDone !== undefined && entrants >= N) {
        jumped = true;
        // Past the wait: the sweep wakes every run.
        clockOffsetMs = (wait.minutes * 60 + 60) * 1000;
        const realClock = original.clock;
        overrideServices({ clock: { now: () => new Date(realClock.now().getTime() + clockOffsetMs) } });
        await runSweep();
        continue;
      }
      if (performance.now() - lastSweep >= SWEEP_EVERY_MS) await runSweep();
      if (worked) lastWork = Date.now();
      if (!worked || round_ % 50 === 0) {
        mails = freshMails().length;
        if (firstMails === undefined && mails >= N) firstMails = performance.now();
      }
      if (!worked && mails < 2 * N) {
        const t0 = performance.now();
        await new Promise((r) => setTimeout(r, 200));
        idleMs += performance.now() - t0;
      }
      if (Date.now() - lastWork > 180_000) throw new Error(`The journey stalled: ${mails} of ${2 * N} mails in the outbox, ${entrants} entrants handled`);
    }
    const secondsToAll = (performance.now() - started) / 1000;

    // Exactly once: one welcome and one follow-up per lead, nothing else.
    const files = freshMails();
    const byLead = new Map<string, { welcome: number; follow: number }>();
    for (const f of files) {
      const { to, subject } = mailHeaders(path.join(cloud.outboxDir, f));
      const seen = byLead.get(to) ?? { welcome: 0, follow: 0 };
      if (subject.startsWith('Welcome,')) seen.welcome++;
      else if (subject.startsWith('A minute later,')) seen.follow++;
      byLead.set(to, seen);
    }
    const wrong = Array.from({ length: N }, (_, i) => `lead${i}@bench.example`).filter((email) => {
      const seen = byLead.get(email);
      return !seen || seen.welcome !== 1 || seen.follow !== 1;
    });
    if (files.length !== 2 * N || wrong.length > 0) throw new Error(`The outbox holds ${files.length} of the journey's ${2 * N} mails; ${wrong.length} leads did not get exactly one of each (first: ${wrong.slice(0, 3).join(', ')})`);

    use('ses-events');
    const events = await applyPublishedSesEvents(cloud, sqs);
    ms['ses-events'] = events.ms;
    cpu['ses-events'] = events.cpu;
    invocations['ses-events'] = events.invocations;
    // Each published event is an SNS publish, a queue message, and its share of a receive and delete.
    sqsRequests['ses-events'].requests += events.published + 2 * events.invocations;
    invocations.api = 2;

    unmetered();
    const stats = await api('GET', `/v1/automations/${automationId}/stats`);
    check('stats', stats, 200);
    const completed = Number(stats.body.data?.runs?.completed ?? 0);
    if (completed !== N) throw new Error(`The automation counts ${completed} completed runs of ${N}`);

    const per = (n: number) => n / N;
    const figures = (parts: readonly Part[]): PartFigures => {
      const f = zeroFigures();
      for (const p of parts) {
        f.write_units += per(meters[p].write);
        f.read_units += per(meters[p].read);
        f.dynamodb_requests += per(meters[p].requests);
        f.sqs_requests += per(sqsRequests[p].requests);
        f.invocations += per(invocations[p]);
      }
      return { write_units: round(f.write_units, 3), read_units: round(f.read_units, 3), dynamodb_requests: round(f.dynamodb_requests, 3), sqs_requests: round(f.sqs_requests, 3), invocations: round(f.invocations, 4) };
    };
    const sum = (parts: readonly Part[], pick: (p: Part) => number) => parts.reduce((t, p) => t + pick(p), 0);
    const write = per(sum(JOURNEY, (p) => meters[p].write));
    const read = per(sum(JOURNEY, (p) => meters[p].read));
    const sqsPerRun = per(sum(JOURNEY, (p) => sqsRequests[p].requests));
    const invocationsPerRun = per(sum(JOURNEY, (p) => invocations[p]));
    // The engine runs at its own memory (queues.automations.workerMemoryMb); the other workers at the default.
    const memoryOf = (p: Part) => (p.startsWith('engine-') ? engineMemoryMb : options.memoryMb);
    const gbs = JOURNEY.reduce((t, p) => t + memoryEstimates(per(cpu[p]), per(ms[p]), [memoryOf(p)])[0].gb_seconds_per_mail, 0);
    const dollars = {
      dynamodb: write * PRICES.dynamodbWriteUnit + read * PRICES.dynamodbReadUnit,
      sqs: sqsPerRun * PRICES.sqsRequest,
      event_publish: per(events.published) * PRICES.snsPublish,
      lambda: invocationsPerRun * PRICES.lambdaRequest + gbs * PRICES.lambdaGbSecondArm,
    };
    const total = Object.values(dollars).reduce((a, b) => a + b, 0);

    const items = new Map<string, { write: number; requests: number }>();
    for (const p of JOURNEY) {
      for (const [kind, w] of writeMaps[p].byItem) {
        const e = items.get(kind) ?? { write: 0, requests: 0 };
        e.write += w.write;
        e.requests += w.requests;
        items.set(kind, e);
      }
    }

    // The model: the engine's enter invocations at Lambda's speed at the function's memory, at its maximum concurrency.
    const wallPerEntrant = ms['engine-enter'] / entrants;
    const cpuPerEntrant = cpu['engine-enter'] / entrants;
    const maxConcurrency = WORKER_MAX_CONCURRENCY.automations;
    const fullBatch = queues.automations.batchSize * 100;
    const atMemory = (memory: number) => {
      const perEntrant = memoryEstimates(cpuPerEntrant, wallPerEntrant, [memory])[0].ms_per_mail;
      return { memory_mb: memory, ms_per_entrant: perEntrant, seconds_to_enrol: round((1_000_000 * perEntrant) / 1000 / maxConcurrency, 0), full_batch_seconds: round((fullBatch * perEntrant) / 1000, 1) };
    };
    const model = atMemory(engineMemoryMb);
    const engineRate = (maxConcurrency * 1000) / model.ms_per_entrant;
    const arrivalRate = 1_000_000 / 60;
    const partitions = busiestByPattern(writeMaps['engine-enter'], 12);
    // The partitions several runs share (index shards, counters, a project's lists); a run's own take only its writes.
    const shared = partitions
      .filter((p) => p.partitions < N / 4)
      .map((p) => {
        const perPartition = p.writes / N / p.partitions;
        return {
          pattern: p.pattern,
          partitions: p.partitions,
          writes_per_run: round(p.writes / N, 4),
          share_per_partition: round(perPartition, 4),
          measured_busiest_share: round(p.most_writes / N, 4),
          writes_per_second_at_arrival: round(perPartition * arrivalRate, 0),
          writes_per_second_at_engine_rate: round(perPartition * engineRate, 1),
        };
      })
      .sort((a, b) => b.share_per_partition - a.share_per_partition);
    const busiest = shared[0];

    return {
      leads: N,
      runs_completed: completed,
      outbox_mails: files.length,
      leads_not_mailed_twice: wrong.length,
      handed_back: handedBack,
      wait_mode: options.jumpWait ? 'clock_jumped' : 'real',
      wait_seconds: wait.minutes * 60,
      seconds_to_all_mails: round(secondsToAll, 1),
      seconds_to_import_done: round(((importDone ?? started) - started) / 1000, 1),
      seconds_to_first_mails: round(((firstMails ?? started) - started) / 1000, 1),
      idle_seconds: round(idleMs / 1000, 1),
      idle_share: round(idleMs / 1000 / secondsToAll, 3),
      enrolment_rate_local: round(entrants / Math.max(0.001, (lastEnter - (firstEnter ?? lastEnter)) / 1000), 1),
      write_units_per_run: round(write, 3),
      read_units_per_run: round(read, 3),
      dynamodb_requests_per_run: round(per(sum(JOURNEY, (p) => meters[p].requests)), 3),
      sqs_requests_per_run: round(sqsPerRun, 3),
      lambda_invocations_per_run: round(invocationsPerRun, 4),
      lambda_gb_seconds_per_run: round(gbs, 5),
      event_publishes_per_run: round(per(events.published), 3),
      write_units_per_run_with_import: round(per(sum(PARTS, (p) => meters[p].write)), 3),
      per_run_by_part: Object.fromEntries(PARTS.map((p) => [p, figures([p])])) as Record<Part, PartFigures>,
      per_run_by_worker: Object.fromEntries(Object.entries(WORKERS).map(([w, parts]) => [w, figures(parts)])) as Record<Worker, PartFigures>,
      local_ms_per_run_by_part: Object.fromEntries(PARTS.map((p) => [p, round(per(ms[p]), 2)])) as Record<Part, number>,
      writes_per_run_by_item: Object.fromEntries(
        [...items.entries()].sort((a, b) => b[1].write - a[1].write).map(([kind, w]) => [kind, { write_units: round(per(w.write), 3), requests: round(per(w.requests), 3) }]),
      ),
      dollars_per_1000_runs: round(total * 1000, 5),
      dollars_by_part_per_1000_runs: {
        dynamodb: round(dollars.dynamodb * 1000, 5),
        sqs: round(dollars.sqs * 1000, 5),
        event_publish: round(dollars.event_publish * 1000, 5),
        lambda: round(dollars.lambda * 1000, 5),
      },
      ses_dollars_per_1000_runs: round(2 * SES_PRICE_PER_MAIL * 1000, 3),
      engine: {
        enter_invocations: invocations['engine-enter'],
        entrants_per_invocation: round(entrants / Math.max(1, invocations['engine-enter']), 1),
        wall_ms_per_entrant: round(wallPerEntrant, 2),
        cpu_ms_per_entrant: round(cpuPerEntrant, 2),
        lambda_ms_per_entrant: model.ms_per_entrant,
        memory_mb: engineMemoryMb,
        max_invocation_seconds: round(maxEnterMs / 1000, 2),
        wake_wall_ms_per_run: round(per(ms['engine-wake']), 2),
      },
      model_1m: {
        max_concurrency: maxConcurrency,
        memory_mb: engineMemoryMb,
        lambda_ms_per_entrant: model.ms_per_entrant,
        entrants_per_second: round(engineRate, 0),
        seconds_to_enrol: model.seconds_to_enrol,
        concurrency_for_one_minute: Math.ceil((1_000_000 * model.ms_per_entrant) / 60_000),
        full_batch_entrants: fullBatch,
        full_batch_seconds: model.full_batch_seconds,
        worker_timeout_seconds: queues.automations.workerTimeoutSeconds,
        by_memory: MEMORY_OPTIONS.map(atMemory),
        arrival_per_second: round(arrivalRate, 0),
        busiest_partition: busiest?.pattern ?? '',
        busiest_writes_per_second_at_arrival: busiest?.writes_per_second_at_arrival ?? 0,
        busiest_writes_per_second_at_engine_rate: busiest?.writes_per_second_at_engine_rate ?? 0,
        partition_limit_writes_per_second: 1_000,
        partitions: shared,
      },
      enrolment_partitions: partitions,
    };
  } finally {
    overrideServices(original);
    sqs.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `npm run bench`'s automation part: the journey over the scale's leads (bench/scale.ts: 200
 * small with the wait jumped over, 100,000 full with the minute waited out) in a cloud of its own;
 * sets `automation` in bench/results.json and prints it.
 */
export async function runAutomationBench(): Promise<void> {
  const { DEFAULT_MEMORY_MB } = await import('../lib/project-function');
  const leads = scalePlan().automation_leads;
  if (leads <= 0) return;
  const jumpWait = AUTOMATION_WAIT[benchScale()] === 'clock_jumped';
  const result = await withBenchCloud((cloud) => measureAutomation(cloud, { leads, memoryMb: DEFAULT_MEMORY_MB, jumpWait }), { name: 'bench-automation', schedules: false });
  writeResults('automation', result);
  const part = (p: PartFigures) => `${p.write_units} WU, ${p.read_units} RU, ${p.dynamodb_requests} DynamoDB / ${p.sqs_requests} SQS requests, ${p.invocations} invocations`;
  const m = result.model_1m;
  const rows: [string, string][] = [
    [
      'journey',
      `send_email, wait ${result.wait_seconds} s (${result.wait_mode === 'clock_jumped' ? 'the clock jumps over it; the sweep wakes the runs' : 'short, so that the bench ends'}), send_email; started by an import into a static segment`,
    ],
    ['leads (one run each)', `${result.leads}, ${result.runs_completed} runs completed, ${result.outbox_mails} mails in the outbox, ${result.leads_not_mailed_twice} leads not mailed exactly twice, ${result.handed_back} messages handed back`],
    ['import start to all mails in the outbox (local)', `${result.seconds_to_all_mails} s (import done ${result.seconds_to_import_done} s, first mails ${result.seconds_to_first_mails} s, idle ${result.idle_seconds} s = ${Math.round(result.idle_share * 100)}%: the wait)`],
    ['enrolment (local, interleaved with the other workers)', `${result.enrolment_rate_local} runs a second`],
    ['per run (engine, send worker, sweep, SES events)', `${result.write_units_per_run} WU, ${result.read_units_per_run} RU, ${result.dynamodb_requests_per_run} DynamoDB / ${result.sqs_requests_per_run} SQS requests`],
    ['write units per run with the import', String(result.write_units_per_run_with_import)],
    ...PARTS.map((p): [string, string] => [`  ${p}`, part(result.per_run_by_part[p])]),
    ['Lambda invocations / GB-seconds per run', `${result.lambda_invocations_per_run} / ${result.lambda_gb_seconds_per_run}`],
    ['$ per 1,000 runs: DynamoDB / SQS / events / Lambda', Object.values(result.dollars_by_part_per_1000_runs).map((d) => `$${d}`).join(' / ')],
    ['$ per 1,000 runs (SES for the 2,000 mails: $' + result.ses_dollars_per_1000_runs + ')', `$${result.dollars_per_1000_runs}`],
    ['engine per entrant (local wall / CPU / Lambda estimate)', `${result.engine.wall_ms_per_entrant} / ${result.engine.cpu_ms_per_entrant} / ${result.engine.lambda_ms_per_entrant} ms at ${result.engine.memory_mb} MB, ${result.engine.entrants_per_invocation} entrants an invocation`],
    [`1M entering in a minute, ${m.max_concurrency} engines at once`, `${m.entrants_per_second} a second: all enrolled in ${m.seconds_to_enrol} s (a minute needs ${m.concurrency_for_one_minute})`],
    [`  a full batch (${m.full_batch_entrants} entrants) at ${m.memory_mb} MB`, `${m.full_batch_seconds} s (the worker's timeout: ${m.worker_timeout_seconds} s)`],
    ['  at 128/256/512/1024/1769 MB', m.by_memory.map((b) => `${b.ms_per_entrant} ms, ${b.seconds_to_enrol} s`).join('; ')],
    ...m.partitions.map((p): [string, string] => [`  ${p.pattern}`, `${p.partitions} partitions, ${p.writes_per_run} writes per run: ${p.writes_per_second_at_arrival}/s each at 1M a minute, ${p.writes_per_second_at_engine_rate}/s at the engine's pace (limit ${m.partition_limit_writes_per_second})`]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log('\nMailroom benchmark: cost per automation run\n');
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  console.log(`\n  written to ${path.relative(process.cwd(), RESULTS_FILE)} (automation)\n`);
}
