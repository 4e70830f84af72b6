/**
 * What a campaign costs per recipient, and that it arrives whole: `BENCH_CAMPAIGN_RECIPIENTS`
 * leads (default 100,000) imported into a project, one campaign to all of them created through the
 * API, and the real workers (campaign engine, batch fan-out, batch-send worker, then the SES events a
 * deployment publishes) run against a local cloud started without its own workers, each metered as
 * bench/batch.ts meters them. Stops unless the outbox holds every mail exactly once. Used by
 * `npm run bench` (`campaign` in bench/results.json) and, small, by test/integration/campaign-cost-budget.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { LocalCloud } from '../local/cloud';
import { applyPublishedSesEvents, cpuMsSince, memoryEstimates, meteredDynamo, meteredSqs, round, type Meter } from './measure';
import { RESULTS_FILE, withBenchCloud, writeResults } from './bench-cloud';
import { scalePlan } from './scale';
import { PRICES, S3_PRICES, SES_PRICE_PER_MAIL } from './prices';
import { asFunction } from '../local/iam/function-roles';

const STEPS = ['campaigns', 'campaign-engine', 'batch-fanout', 'batch-send-worker', 'ses-events'] as const;
type Step = (typeof STEPS)[number];

export interface CampaignResult {
  recipients: number;
  /** .eml files the local SES wrote for the campaign, and how many addresses appear more than once. */
  outbox_mails: number;
  outbox_duplicates: number;
  /** Wall time from the create call until the campaign was `completed` (local, with the rate raised: see `send_rate`). */
  seconds_to_completed: number;
  /** The engine's init (counting the frozen audience) in this run: O(1), whatever the audience's size. */
  init_ms: number;
  send_rate: number;
  engine_steps: number;
  waves: number;
  overhead_pct: number;
  dollars_per_1000_mails: number;
  write_units_per_recipient: number;
  read_units_per_recipient: number;
  write_units_by_step: Record<Step, number>;
  dynamodb_requests_per_recipient: number;
  sqs_requests_per_recipient: number;
  event_publishes_per_recipient: number;
  lambda_invocations_per_recipient: number;
  lambda_gb_seconds_per_recipient: number;
  dollars_by_part_per_1000_mails: { dynamodb: number; sqs: number; event_publish: number; lambda: number };
  /**
   * Pacing per mailbox provider (with `providerMix`): per provider, its limit (mails a minute), the
   * recipients, the most the engine released to it in one minute (its budget items), and the most
   * the local SES wrote to it in one calendar minute (the outbox files' times: the pipeline's seconds
   * of latency can move a few mails across a minute's edge).
   */
  providers?: Record<string, { limit: number | null; recipients: number; minutes: number; released_max_per_minute: number; sent_max_per_minute: number }>;
  /** Every provider's release stayed inside its limit in every minute. */
  providers_within_limits?: boolean;
  /** 10 million recipients modelled at two account rates (the engine's share of the rate, the measured step time). */
  model_10m: { rate: number; campaign_share: number; hours_to_completed: number; seconds_to_pending: number }[];
}

/**
 * The recipient domains of the provider mix, by percentage: 35% Google, 20% Microsoft, 10% Yahoo,
 * 5% Apple, 30% other (ten custom domains, looked up by MX once each: the local DNS answers none).
 */
const PROVIDER_MIX: readonly (readonly [number, (i: number) => string])[] = [
  [35, () => 'gmail.com'],
  [10, () => 'outlook.com'],
  [10, () => 'hotmail.com'],
  [10, () => 'yahoo.com'],
  [5, () => 'icloud.com'],
  [30, (i) => `org${i % 10}.bench.example`],
];

/** The domain of lead `i`: bench.example, or the provider mix's by `i % 100`. */
function domainOfLead(i: number, mix: boolean): string {
  if (!mix) return 'bench.example';
  let bucket = i % 100;
  for (const [share, domain] of PROVIDER_MIX) {
    if (bucket < share) return domain(i);
    bucket -= share;
  }
  return 'bench.example';
}

/** A CSV of `rows` leads (reader<i>@<domain>), with a name and a plan the template reads. */
function writeLeadsCsv(file: string, rows: number, mix: boolean): void {
  const lines = ['email,name,plan'];
  for (let i = 0; i < rows; i++) lines.push(`reader${i}@${domainOfLead(i, mix)},Reader ${i},${i % 3 === 0 ? 'pro' : 'free'}`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
}

/**
 * The provider limits a run of `recipients` uses: the defaults at 100,000 and more; below, scaled to
 * the audience (three times its share of 100,000) so that a small run is paced over a few minutes too.
 */
export function benchProviderRates(recipients: number, defaults: Readonly<Record<string, number | null>>): Record<string, number | null> {
  if (recipients >= 100_000) return { ...defaults };
  return Object.fromEntries(Object.entries(defaults).map(([p, rate]) => [p, rate === null ? null : Math.max(1, Math.round((rate * recipients * 3) / 100_000))]));
}

/**
 * Imports `recipients` leads, creates one campaign to all of them, runs it to `completed` with the
 * real workers, applies the Delivery events, and returns the per-recipient figures.
 */
export async function measureCampaign(
  cloud: LocalCloud,
  options: { recipients: number; memoryMb: number; sendRate?: number; providerMix?: boolean; providerRates?: Record<string, number | null> },
): Promise<CampaignResult> {
  const { overrideServices, services } = await import('../composition/services');
  const { refreshConfig } = await import('../shared/platform/core/config');
  const { createDocumentClient } = await import('../shared/platform/store/client');
  const { SqsQueue } = await import('../shared/platform/adapters/sqs-queue');
  const { QueueEventPublisher } = await import('../shared/platform/adapters/queue-event-publisher');
  const { importFromFile } = await import('../shared/audience/imports/import-service');
  const { getSender } = await import('../shared/identities/domains/sender-repository');
  const { queues } = await import('../shared/platform/core/queues');
  const N = options.recipients;
  // The local SES account sends 50 a second; the bench measures units, not the pacing, so it raises the rate.
  const sendRate = options.sendRate ?? 20_000;
  const previousRate = process.env.CAMPAIGN_SEND_RATE;
  const previousProviderRates = process.env.PROVIDER_RATES;
  refreshConfig({ CAMPAIGN_SEND_RATE: String(sendRate), PROVIDER_RATES: options.providerRates ? JSON.stringify(options.providerRates) : previousProviderRates });
  const original = services();
  const tableName = original.db.tableName;
  const sqs = new SQSClient({});
  const queueRequests = { requests: 0 };
  const queue = SqsQueue.fromConfig(meteredSqs(queueRequests), original.config);
  const meters = Object.fromEntries(STEPS.map((s) => [s, { write: 0, read: 0, requests: 0 }])) as Record<Step, Meter>;
  const use = (step: Step) => overrideServices({ db: { doc: createDocumentClient(meteredDynamo(meters[step])), tableName }, queue, events: new QueueEventPublisher(queue) });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-bench-campaign-'));
  const outboxBefore = new Set(fs.readdirSync(cloud.outboxDir));

  try {
    // The audience: N leads in the seeded project (its verified domain and sender send the campaign).
    const projectId = cloud.seed.project_id;
    const key = cloud.seed.live_key;
    const file = path.join(dir, 'leads.csv');
    writeLeadsCsv(file, N, options.providerMix === true);
    const imported = await importFromFile({ db: original.db, clock: original.clock, leadSignals: original.leadSignals }, projectId, 'csv', fs.statSync(file).size, async (offset) => fs.createReadStream(file, { start: offset }));
    if (imported.status !== 'done') throw new Error(`The lead import ended ${imported.status}`);

    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${cloud.baseUrl}${p}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const html = `<p>Hi {{name}}, the {{plan}} plan has news.</p>\n${fs.readFileSync(path.join(__dirname, 'sample-mail.html'), 'utf8')}`;
    const template = await api('POST', '/v1/templates', { name: `Bench campaign ${Date.now()}`, subject: 'News for {{name}}', html });
    if (template.status !== 201) throw new Error(`template: ${template.status} ${JSON.stringify(template.body)}`);
    const sender = await getSender(original.db, projectId, cloud.seed.sender_email);
    if (!sender) throw new Error('The seeded sender is missing');

    use('campaigns');
    const started = performance.now();
    const created = await api('POST', '/v1/campaigns', {
      name: `Bench ${N}`,
      templateId: template.body.data.id,
      senderProfileId: sender.id,
      selectAllRecipients: true,
      recipientCount: N,
      confirmDuplicate: true,
    });
    if (created.status !== 200) throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body)}`);
    const campaignId = created.body.campaign.id as string;

    // The workers, each metered, round-robin until the campaign completes (steps wait out their pacing window).
    const handlers = {
      'campaign-engine': { url: cloud.queueUrls.campaigns, batch: queues.campaigns.batchSize, handler: asFunction('campaign-engine', (await import('../functions/campaign-engine/handler')).handler) },
      'batch-fanout': { url: cloud.queueUrls.fanout, batch: queues.fanout.batchSize, handler: asFunction('batch-fanout', (await import('../functions/batch-fanout/handler')).handler) },
      'batch-send-worker': { url: cloud.queueUrls['batch-send'], batch: queues['batch-send'].batchSize, handler: asFunction('batch-send-worker', (await import('../functions/batch-send-worker/handler')).handler) },
    } as const;
    const ms: Record<Step, number> = Object.fromEntries(STEPS.map((s) => [s, 0])) as Record<Step, number>;
    const cpu: Record<Step, number> = { ...ms };
    const invocations: Record<Step, number> = { ...ms, campaigns: 1 };
    let pollRequests = 0;
    let initMs = 0;
    let steps = 0;
    let status = 'initializing';
    let lastWork = Date.now();
    for (let round_ = 0; status !== 'completed'; round_++) {
      let worked = false;
      for (const [step, q] of Object.entries(handlers) as [Step, (typeof handlers)[keyof typeof handlers]][]) {
        const out = await sqs.send(new ReceiveMessageCommand({ QueueUrl: q.url, MaxNumberOfMessages: q.batch, WaitTimeSeconds: 0 }));
        pollRequests++;
        const messages = out.Messages ?? [];
        if (messages.length === 0) continue;
        worked = true;
        use(step);
        const event = { Records: messages.map((m) => ({ messageId: m.MessageId, receiptHandle: m.ReceiptHandle, body: m.Body, attributes: { ApproximateReceiveCount: '1' } })) } as unknown as SQSEvent;
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const result = (await q.handler(event)) as SQSBatchResponse;
        const spent = performance.now() - t0;
        ms[step] += spent;
        cpu[step] += cpuMsSince(c0);
        invocations[step]++;
        if (step === 'campaign-engine') {
          steps++;
          if (messages.some((m) => (JSON.parse(m.Body ?? '{}') as { kind?: string }).kind === 'init')) initMs += spent;
        }
        // A message the worker hands back (a step ahead of its turn) comes again after its visibility timeout.
        const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
        const done = messages.filter((m) => !failed.has(m.MessageId ?? ''));
        if (done.length > 0) {
          await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: q.url, Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })) }));
          pollRequests++;
        }
      }
      if (worked) lastWork = Date.now();
      if (!worked || round_ % 20 === 0) {
        status = String((await api('GET', `/v1/campaigns/${campaignId}`)).body.campaign?.status);
        if (!worked && status !== 'completed') await new Promise((r) => setTimeout(r, 500));
      }
      if (Date.now() - lastWork > 180_000) throw new Error(`The campaign stalled in ${status}`);
    }
    const secondsToCompleted = (performance.now() - started) / 1000;

    const fresh = fs.readdirSync(cloud.outboxDir).filter((f) => f.endsWith('.eml') && !outboxBefore.has(f));
    const recipients = fresh.map((f) => /^To: (.*)$/m.exec(fs.readFileSync(path.join(cloud.outboxDir, f), 'utf8'))?.[1]?.trim() ?? '');
    const duplicates = recipients.length - new Set(recipients).size;
    if (recipients.length !== N || duplicates > 0) throw new Error(`The outbox holds ${recipients.length} of the campaign's ${N} mails (${duplicates} repeated)`);
    // The outbox is checked before the events: a run that cannot finish the events phase still proves its mail.
    use('ses-events');
    const events = await applyPublishedSesEvents(cloud, sqs);
    ms['ses-events'] = events.ms;
    cpu['ses-events'] = events.cpu;
    invocations['ses-events'] = events.invocations;


    const providers = options.providerMix ? await providerMinutes(original, fresh.map((f, i) => ({ to: recipients[i], at: fs.statSync(path.join(cloud.outboxDir, f)).mtimeMs }))) : undefined;

    const wavesCreated = Math.ceil(N / 10_000);
    const per = (n: number) => n / N;
    const sum = (pick: (m: Meter) => number) => STEPS.reduce((total, s) => total + pick(meters[s]), 0);
    const write = per(sum((m) => m.write));
    const read = per(sum((m) => m.read));
    const gbs = STEPS.reduce((total, s) => total + memoryEstimates(per(cpu[s]), per(ms[s]), [options.memoryMb])[0].gb_seconds_per_mail, 0);
    const invocationsPer = per(Object.values(invocations).reduce((a, b) => a + b, 0));
    // Each published event is an SNS publish, a queue message, and its share of a receive and delete.
    const sqsRequests = per(queueRequests.requests + pollRequests + events.published + 2 * events.invocations);
    const dollars = {
      dynamodb: write * PRICES.dynamodbWriteUnit + read * PRICES.dynamodbReadUnit,
      sqs: sqsRequests * PRICES.sqsRequest,
      event_publish: per(events.published) * PRICES.snsPublish,
      lambda: invocationsPer * PRICES.lambdaRequest + gbs * PRICES.lambdaGbSecondArm,
    };
    const total = Object.values(dollars).reduce((a, b) => a + b, 0) + (per(wavesCreated * 22) * S3_PRICES.put);
    const share = 1 - original.config.TRANSACTIONAL_RATE_SHARE;
    return {
      recipients: N,
      outbox_mails: recipients.length,
      outbox_duplicates: duplicates,
      seconds_to_completed: round(secondsToCompleted, 1),
      init_ms: round(initMs, 1),
      send_rate: sendRate,
      engine_steps: steps,
      waves: wavesCreated,
      overhead_pct: round((total / SES_PRICE_PER_MAIL) * 100, 2),
      dollars_per_1000_mails: round(total * 1000, 5),
      write_units_per_recipient: round(write, 3),
      read_units_per_recipient: round(read, 3),
      write_units_by_step: Object.fromEntries(STEPS.map((s) => [s, round(per(meters[s].write), 3)])) as Record<Step, number>,
      dynamodb_requests_per_recipient: round(per(sum((m) => m.requests)), 3),
      sqs_requests_per_recipient: round(sqsRequests, 3),
      event_publishes_per_recipient: round(per(events.published), 3),
      lambda_invocations_per_recipient: round(invocationsPer, 4),
      lambda_gb_seconds_per_recipient: round(gbs, 5),
      dollars_by_part_per_1000_mails: {
        dynamodb: round(dollars.dynamodb * 1000, 5),
        sqs: round(dollars.sqs * 1000, 5),
        event_publish: round(dollars.event_publish * 1000, 5),
        lambda: round(dollars.lambda * 1000, 5),
      },
      ...(providers ? { providers, providers_within_limits: Object.values(providers).every((p) => p.limit === null || p.released_max_per_minute <= p.limit) } : {}),
      model_10m: [1_000, 3_000].map((rate) => ({
        rate,
        campaign_share: round(rate * share, 0),
        hours_to_completed: round(10_000_000 / (rate * share) / 3600, 2),
        seconds_to_pending: round(initMs / 1000, 2),
      })),
    };
  } finally {
    overrideServices(original);
    refreshConfig({ CAMPAIGN_SEND_RATE: previousRate, PROVIDER_RATES: previousProviderRates });
    sqs.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Per provider: its limit, its recipients, the most its budget items recorded taken in a minute, and
 * the most mails to it the outbox got in one calendar minute.
 */
async function providerMinutes(deps: import('../composition/services').Services, mails: { to: string; at: number }[]): Promise<NonNullable<CampaignResult['providers']>> {
  const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { MAILBOX_PROVIDERS, knownProvider } = await import('../shared/mail-pipeline/delivery/mailbox-provider');
  const { providerRates } = await import('../shared/marketing/campaigns/provider-pacing');
  const rates = providerRates(deps.config);
  const out: NonNullable<CampaignResult['providers']> = {};
  const minutes = (await deps.db.doc.send(new QueryCommand({ TableName: deps.db.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :min)', ExpressionAttributeValues: { ':pk': 'PRATE', ':min': 'MIN#' } }))).Items ?? [];
  for (const provider of MAILBOX_PROVIDERS) {
    const items = minutes.filter((m) => m[provider] !== undefined);
    const sent = new Map<number, number>();
    let count = 0;
    for (const mail of mails) {
      if ((knownProvider(mail.to.slice(mail.to.lastIndexOf('@') + 1)) ?? 'other') !== provider) continue;
      count++;
      const minute = Math.floor(mail.at / 60_000);
      sent.set(minute, (sent.get(minute) ?? 0) + 1);
    }
    if (count === 0) continue;
    out[provider] = {
      limit: rates[provider],
      recipients: count,
      minutes: items.length || sent.size,
      released_max_per_minute: Math.max(0, ...items.map((i) => Number(i[provider] ?? 0))),
      sent_max_per_minute: Math.max(0, ...sent.values()),
    };
  }
  return out;
}

/**
 * `npm run bench`'s campaign part: one campaign to the scale's recipients (bench/scale.ts: 500
 * small, 100,000 full) in a cloud of its own; sets `campaign` in bench/results.json and prints it.
 */
export async function runCampaignBench(): Promise<void> {
  const { DEFAULT_MEMORY_MB } = await import('../lib/project-function');
  const recipients = scalePlan().campaign_recipients;
  if (recipients <= 0) return;
  const { DEFAULT_PROVIDER_RATES, parseProviderRates } = await import('../shared/mail-pipeline/delivery/provider-rates');
  // The provider mix, paced: the defaults at 100,000 recipients, scaled down with a smaller audience;
  // or BENCH_PROVIDER_RATES (PROVIDER_RATES's format), recorded apart as `campaign_paced`: limits low
  // enough to bind at the local cloud's rate, which the defaults never reach.
  const given = process.env.BENCH_PROVIDER_RATES;
  const providerRates = given ? { ...parseProviderRates(given) } : benchProviderRates(recipients, DEFAULT_PROVIDER_RATES);
  // BENCH_CAMPAIGN_SEND_RATE: the account's campaign rate (mails a second). Raised far above what the
  // local workers send by default, so that the engine's steps are measured and not its waits; set
  // near the local cloud's own pace, no backlog builds behind the releases, and each provider's mails
  // reach the outbox in the minute they were released (sends per minute measure the pacing).
  const sendRate = process.env.BENCH_CAMPAIGN_SEND_RATE ? Number(process.env.BENCH_CAMPAIGN_SEND_RATE) : undefined;
  if (sendRate !== undefined && !(Number.isInteger(sendRate) && sendRate >= 1)) throw new Error('BENCH_CAMPAIGN_SEND_RATE must be a whole number of mails a second');
  const campaign = await withBenchCloud((cloud) => measureCampaign(cloud, { recipients, memoryMb: DEFAULT_MEMORY_MB, providerMix: true, providerRates, sendRate }), { name: 'bench-campaign' });
  writeResults(given ? 'campaign_paced' : 'campaign', campaign);
  const rows: [string, string][] = [
    ['recipients (one campaign)', `${campaign.recipients}, ${campaign.outbox_mails} in the outbox, ${campaign.outbox_duplicates} repeated`],
    ['time to completed (local, rate raised)', `${campaign.seconds_to_completed} s, ${campaign.engine_steps} engine steps, ${campaign.waves} waves`],
    ['init (frozen audience counted)', `${campaign.init_ms} ms`],
    ['write units per recipient (API / engine / fan-out / worker / events)', `${campaign.write_units_per_recipient} (${STEPS.map((s) => campaign.write_units_by_step[s]).join(' / ')})`],
    ['read units per recipient', String(campaign.read_units_per_recipient)],
    ['DynamoDB requests per recipient', String(campaign.dynamodb_requests_per_recipient)],
    ['SQS requests per recipient', String(campaign.sqs_requests_per_recipient)],
    ['Lambda invocations / GB-seconds per recipient', `${campaign.lambda_invocations_per_recipient} / ${campaign.lambda_gb_seconds_per_recipient}`],
    ['$ per 1,000 mails: DynamoDB / SQS / events / Lambda', Object.values(campaign.dollars_by_part_per_1000_mails).map((d) => `$${d}`).join(' / ')],
    ['overhead through delivered (goal <= 2%)', `$${campaign.dollars_per_1000_mails} per 1,000 mails = ${campaign.overhead_pct}% of SES`],
    ...Object.entries(campaign.providers ?? {}).map(([p, f]): [string, string] => [
      `provider ${p} (limit ${f.limit ?? 'none'} a minute)`,
      `${f.recipients} recipients over ${f.minutes} minutes; at most ${f.released_max_per_minute} released, ${f.sent_max_per_minute} sent in a minute`,
    ]),
    ['every provider inside its limit in every minute', String(campaign.providers_within_limits ?? 'not measured')],
    ...campaign.model_10m.map((m): [string, string] => [`10M recipients at ${m.rate}/s (campaigns get ${m.campaign_share}/s)`, `pending in ${m.seconds_to_pending} s, completed in ${m.hours_to_completed} h`]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log('\nMailroom benchmark: cost per campaign recipient\n');
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  console.log(`\n  written to ${path.relative(process.cwd(), RESULTS_FILE)} (${given ? 'campaign_paced' : 'campaign'})\n`);
}
