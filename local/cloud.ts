import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DeleteTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, SQSClient, type QueueAttributeName } from '@aws-sdk/client-sqs';
import { refreshConfig } from '../shared/platform/core/config';
import { inboundStore } from '../composition/inbound';
import { overrideServices, resetServices, services } from '../composition/services';
import { queues, type QueueName } from '../shared/platform/core/queues';
import { bucketFunctions, endpointGroups, schedules, workers, type EndpointGroup, type WorkerName } from '../shared/platform/core/routes';
import { inboundInjection } from '../shared/mail-pipeline/inbound/local-injection';
import { startApiServer } from './api-server';
import type { ContractBreach } from './answer-check';
import { eventCheckingQueue, type EventBreach } from './event-check';
import { QueueEventPublisher } from '../shared/platform/adapters/queue-event-publisher';
import { dnsPublishRoute, publishDomainRecords } from './dns-publishing';
import { LocalDnsServer } from './emulators/dns';
import { startDynamoDb, type RunningEmulator } from './emulators/dynamodb';
import { startS3 } from './emulators/s3';
import { startSes } from './emulators/ses';
import { startSqs } from './emulators/sqs';
import { ensureConsoleBuilt } from '../console/build';
import { onFreePort } from './free-port';
import { provisionBucket, provisionQueues, provisionTable } from './provision';
import { startQueuePollers } from './queue-pollers';
import { ensureSeed, type Seed } from './seed';
import { startTimers } from './timers';
import { lambdaContext } from './lambda-context';
import { LocalTimers } from './local-timers';
import { LocalTrackingEdge } from './tracking-edge';
import { publishSimulatedEvents, type SentRequest } from './mailbox-simulator';
import { checkCall, enforcePolicies, refusal, roleArn, runAs, setResourceTagSource } from './iam/enforce';
import { actingAs, CAMPAIGN_TIMER_ROLE, identityOwnerFor, sesEventsTopicArn, startLocalIam, type LocalIamOption } from './iam/local-iam';
import { stackPolicyMap } from './iam/policy-map';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './iam/policy-map-format';

const ROOT = path.resolve(__dirname, '..');

export interface LocalCloudOptions {
  /** Where data lives (`.local` for `npm start`; a temporary folder in tests). */
  readonly dataDir: string;
  /** Keep DynamoDB data on disk under dataDir (else in memory). */
  readonly persist: boolean;
  /** Ports; 0 picks a free one. */
  readonly ports: { api: number; dynamodb: number; sqs: number; ses: number; s3: number };
  /** Run the queue workers: all (default), none, or only those named (tests that read a queue themselves). */
  readonly workers?: boolean | readonly WorkerName[];
  /** Run the scheduled jobs every `everySeconds` (default), or not (a benchmark that runs a job itself, to meter it). */
  readonly schedules?: boolean;
  /** Start DynamoDB Local for a short run (tests): faster start, lower peak speed (QUICK_START_JVM_FLAGS). */
  readonly quickStart?: boolean;
  /**
   * A DynamoDB Local already running, used instead of starting one (the integration tests share one
   * across files): this cloud makes its own table there and deletes it when it stops.
   */
  readonly dynamodb?: { readonly endpoint: string; readonly tableName: string };
  /**
   * IAM as in AWS (the default): every AWS call a function makes is authorized against the policy
   * the CDK stack gives its role, and the resource policies; a call the role may not make fails with
   * AccessDenied (docs/local-iam.md). `adjust` changes the stack's policies (a test removing a grant);
   * `false` turns the check off.
   */
  readonly iam?: LocalIamOption;
  /**
   * Check every API answer against its route module (the tests: test/integration/support/test-cloud.ts):
   * a breach answers 500 and is listed in `breaches`.
   */
  readonly checkAnswers?: boolean;
  /**
   * Check every event sent to the events or webhooks queue against the payload schema of its name
   * (local/event-check.ts; the tests): a breach is listed in `eventBreaches`, the event sent all the same.
   */
  readonly checkEvents?: boolean;
}

export interface LocalCloud {
  readonly baseUrl: string;
  readonly sesUrl: string;
  readonly seed: Seed;
  readonly queueUrls: Record<QueueName, string>;
  readonly outboxDir: string;
  /** Answers that broke their route's contract (with `checkAnswers`). */
  readonly breaches: readonly ContractBreach[];
  /** Events that broke their payload schema, or had none (with `checkEvents`). */
  readonly eventBreaches: readonly EventBreach[];
  /**
   * Whether the pipeline is still at work: a message waiting, in flight or (unless `delayed` is
   * false) delayed on a queue a worker polls, a worker or scheduled job running, or a simulated SES
   * event on its way to its queue. One-time timers (the campaign engine's long waits) do not count.
   * Tests wait for it to be false before they assert that nothing more happens.
   */
  busy(options?: { delayed?: boolean }): Promise<boolean>;
  stop(): Promise<void>;
}

// s3rver only knows its own account; the other emulators take any credentials.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * Starts the whole service on this machine: DynamoDB Local, an SQS server, the SES emulator (with
 * the raw-message outbox) and an S3 server; creates the table, queues and bucket from the shared
 * definitions; points the AWS SDK at them through the standard AWS_ENDPOINT_URL_* variables; then
 * serves the API, polls the queues into the workers and runs the timers, all with the very
 * handlers that Lambda runs.
 */
export async function startLocalCloud(options: LocalCloudOptions): Promise<LocalCloud> {
  // Lambda runs Node 22; the SDK's notice about Node 20 is noise on a laptop.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // CloudWatch reads the workers' metrics from their logs; on a laptop they would be noise
  // (POWERTOOLS_METRICS_DISABLED=false npm start prints them).
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  // The console's page serves console/dist: built now if its sources changed since (a fraction of a second).
  ensureConsoleBuilt();
  const dataDir = path.resolve(options.dataDir);
  const pidDir = path.join(dataDir, 'pids');
  const outboxDir = path.join(dataDir, 'outbox');
  fs.mkdirSync(dataDir, { recursive: true });
  const breaches: ContractBreach[] = [];
  const eventBreaches: EventBreach[] = [];

  // Synthesized once per version of the stack (cached on disk): before the emulators, which it would stall.
  if (options.iam !== false) stackPolicyMap();

  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
    stops.length = 0;
  };

  try {
    const dbPath = options.persist ? path.join(dataDir, 'dynamodb') : undefined;
    if (dbPath) fs.mkdirSync(dbPath, { recursive: true });
    // The mailbox simulator needs the SES events queue, which exists only once SQS is up.
    let simulate: ((request: Record<string, unknown>, messageId: string) => void) | undefined;
    let eventsOnTheirWay = 0;
    // The Node emulators bind port 0 themselves when the caller lets us choose; DynamoDB Local needs
    // a number, which another process can take before it binds: then onFreePort chooses again.
    const startDynamo = async (): Promise<RunningEmulator> =>
      options.dynamodb
        ? sharedTable(options.dynamodb)
        : onFreePort(options.ports.dynamodb, (port) => startDynamoDb({ port, dbPath, pidDir, quickStart: options.quickStart }));
    // Settled one by one, so that the emulators that did start are stopped when another did not.
    const started = await Promise.allSettled([
      startDynamo(),
      startSqs({ port: options.ports.sqs }),
      startSes({
        port: options.ports.ses,
        outboxDir,
        stateFile: path.join(dataDir, 'ses-identities.json'),
        onSent: (r, id) => simulate?.(r, id),
        // aws:ResourceTag of an identity ARN (`...:identity/<name>`) is the tags SES keeps for it.
        onIdentities: (identities) => {
          setResourceTagSource((arn) => {
            const identity = /:identity\/(.+)$/.exec(arn)?.[1];
            return identity === undefined ? undefined : identities.tagsOf(identity);
          });
          stops.push(async () => setResourceTagSource(() => undefined));
        },
      }),
      startS3({ port: options.ports.s3, directory: path.join(dataDir, 's3') }),
    ]);
    const emulators: RunningEmulator[] = [];
    for (const outcome of started) if (outcome.status === 'fulfilled') emulators.push(outcome.value);
    emulators.forEach((e) => stops.push(() => e.stop()));
    const failed = started.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const [dynamo, sqs, ses, s3] = emulators;
    // Domains verify by what is published in DNS; locally, this server is the whole of DNS.
    const dns = await LocalDnsServer.start({ port: 0, stateFile: path.join(dataDir, 'dns-records.json') });
    stops.push(() => dns.stop());

    const tableName = options.dynamodb?.tableName ?? 'mailroom';
    const bucket = 'mailroom-payloads';
    const sqsClient = new SQSClient({ endpoint: sqs.endpoint, region: 'us-east-1', credentials });
    await provisionTable(new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials }), tableName);
    const queueUrls = await provisionQueues(sqsClient, 'mailroom');
    const configurationSet = 'mailroom';
    startLocalIam({ tableName, bucket, queueUrls, configurationSet }, options.iam);
    stops.push(async () => enforcePolicies(undefined));
    simulate = (request, messageId) => {
      // SES publishes to the events topic as the configuration set, if the topic's policy lets it;
      // SNS then delivers to the queue, if the queue's policy lets the topic.
      const configurationSetArn = `arn:aws:ses:${LOCAL_REGION}:${LOCAL_ACCOUNT}:configuration-set/${(request as SentRequest).ConfigurationSetName ?? configurationSet}`;
      const refused = refusal({ kind: 'service', service: 'ses.amazonaws.com', sourceArn: configurationSetArn }, { action: 'sns:Publish', resource: sesEventsTopicArn });
      if (refused) return console.error('Mailbox simulator: SES cannot publish its events:', refused);
      eventsOnTheirWay++;
      runAs({ kind: 'service', service: 'sns.amazonaws.com', sourceArn: sesEventsTopicArn }, () =>
        publishSimulatedEvents(sqsClient, queueUrls['ses-events'], request as SentRequest, messageId),
      )
        .catch((e) => console.error('Mailbox simulator:', e))
        .finally(() => eventsOnTheirWay--);
    };
    await provisionBucket(new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', credentials, forcePathStyle: true }), bucket);

    // A cloud starts from the real adapters: services a caller replaced for an earlier cloud in this
    // process (a benchmark's metered clients, restored as overrides) would still reach its endpoints.
    resetServices();
    refreshConfig({
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      AWS_ENDPOINT_URL_SESV2: ses.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      TABLE_NAME: tableName,
      PAYLOAD_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: 'true',
      // Named in every SendEmail and CreateEmailIdentity, as in AWS, so that its grant is checked (the emulator ignores it).
      SES_CONFIGURATION_SET: configurationSet,
      ALLOW_PRIVATE_URLS: 'true',
      TOKEN_SECRET: tokenSecretIn(dataDir),
      DNS_SERVERS: dns.address,
      // Tracking CNAMEs point at the host that serves tracking here: the local API on localhost.
      TRACKING_HOST: 'localhost',
      // The local cloud always receives mail: replies, reply domains and mailto: unsubscribes work here.
      RECEIVING: 'on',
      // The tag value of the SES identities this cloud creates, as the stack's policy names it for this
      // cloud's table (lib/ses.ts: the table's name). Without IAM the stack is not synthesized: the name itself.
      SES_IDENTITY_OWNER: options.iam === false ? tableName : identityOwnerFor(tableName),
      ...Object.fromEntries(Object.entries(queues).map(([name, def]) => [def.urlEnv, queueUrls[name as QueueName]])),
    });
    // One-time schedules (the campaign engine's long waits) fire in this process. Creating one is
    // the caller's CreateSchedule (passing the timer role); firing it is the timer role's SendMessage.
    const oneTimeTimers = new LocalTimers(() => actingAs(CAMPAIGN_TIMER_ROLE, services().queue));
    stops.push(async () => oneTimeTimers.stop());
    const checkedTimers: typeof oneTimeTimers = Object.assign(Object.create(oneTimeTimers) as typeof oneTimeTimers, {
      fireAt: async (name: string, at: Date, queue: QueueName, body: unknown) => {
        checkCall('SchedulerClient', 'CreateScheduleCommand', { Name: name, GroupName: 'default', Target: { RoleArn: roleArn(CAMPAIGN_TIMER_ROLE) } });
        return oneTimeTimers.fireAt(name, at, queue, body);
      },
    });
    overrideServices({ edge: new LocalTrackingEdge(path.join(dataDir, 'tracking-edge.json')), timers: checkedTimers });
    if (options.checkEvents) {
      // Every publisher reaches the events queue through this queue (the events port included), and every delivery job the webhooks queue.
      const queue = eventCheckingQueue(services().queue, (breach) => {
        eventBreaches.push(breach);
        console.error(`Event breach: ${breach.event} on the ${breach.queue} queue: ${breach.problem}`);
      });
      overrideServices({ queue, events: new QueueEventPublisher(queue) });
    }

    const handlers = {} as Record<EndpointGroup, Parameters<typeof startApiServer>[0]['handlers'][EndpointGroup]>;
    for (const [group, def] of Object.entries(endpointGroups)) {
      handlers[group as EndpointGroup] = (await import(path.join(ROOT, def.entry))).handler;
    }
    // Injects an inbound reply as the SES receipt rule would (local only; see shared/mail-pipeline/inbound/local-injection.ts).
    const inbound = await import(path.join(ROOT, bucketFunctions.inbound.entry));
    const localRoutes = {
      // SES stores the mail (the inbound bucket's policy lets it), then S3 invokes the function.
      'POST /_local/inbound': inboundInjection(
        () => {
          const { bucket: inboundBucket, store } = inboundStore();
          const asSes = { kind: 'service', service: 'ses.amazonaws.com' } as const;
          return { bucket: inboundBucket, store: { get: (key: string) => store.get(key), put: (key: string, body: Buffer) => runAs(asSes, () => store.put(key, body)) } };
        },
        (event) => runAs('inbound', () => inbound.handler(event, lambdaContext('local-inbound'))),
      ),
      // Publishes a project's records of a domain to the local DNS, as its owner would (local only).
      'POST /_local/dns/publish': dnsPublishRoute(services, dns),
    };
    const api = await startApiServer({ port: options.ports.api, handlers, localRoutes, ...(options.checkAnswers ? { checkAnswers: { onBreach: (b) => breaches.push(b) } } : {}) });
    stops.push(() => api.stop());
    // Open and click links point at this API (read at every send, so setting it now is in time).
    refreshConfig({ TRACKING_BASE_URL: api.url });

    let pollers: ReturnType<typeof startQueuePollers> | undefined;
    const polledQueues: string[] = [];
    if (options.workers !== false) {
      const specs = [];
      for (const [name, def] of Object.entries(workers)) {
        if (Array.isArray(options.workers) && !options.workers.includes(name as WorkerName)) continue;
        const queueUrl = queueUrls[def.queue];
        const arn = (await sqsClient.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? '';
        specs.push({ name, queueUrl, queueArn: arn, batchSize: queues[def.queue].batchSize, handler: (await import(path.join(ROOT, def.entry))).handler });
        polledQueues.push(queueUrl);
      }
      const started = startQueuePollers(sqsClient, specs);
      pollers = started;
      stops.push(() => started.stop());
    }

    const jobs = [];
    for (const [name, schedule] of Object.entries(options.schedules === false ? {} : schedules)) {
      jobs.push({ name, schedule, handler: (await import(path.join(ROOT, schedule.entry))).handler });
    }
    const timers = startTimers(jobs);
    stops.push(() => timers.stop());

    const seed = await ensureSeed(services(), path.join(dataDir, 'seed.json'), {
      baseUrl: api.url,
      sesUrl: ses.endpoint.replace('127.0.0.1', 'localhost'),
      publishDns: async (projectId, domain) => void (await publishDomainRecords(services(), dns, projectId, domain)),
    });
    const busy = async ({ delayed = true }: { delayed?: boolean } = {}): Promise<boolean> => {
      if (eventsOnTheirWay > 0 || pollers?.busy() || timers.busy()) return true;
      const names: QueueAttributeName[] = ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', ...(delayed ? (['ApproximateNumberOfMessagesDelayed'] as const) : [])];
      for (const queueUrl of polledQueues) {
        const { Attributes: counts = {} } = await sqsClient.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: names }));
        if (names.some((name) => Number(counts[name] ?? 0) > 0)) return true;
      }
      return false;
    };
    return { baseUrl: api.url, sesUrl: seed.ses_outbox_url, seed, queueUrls, outboxDir, breaches, eventBreaches, busy, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A table of a DynamoDB Local that another owner runs: stopping it deletes the table, not the emulator. */
function sharedTable(shared: { endpoint: string; tableName: string }): RunningEmulator {
  return {
    endpoint: shared.endpoint,
    stop: async () => {
      const client = new DynamoDBClient({ endpoint: shared.endpoint, region: 'us-east-1', credentials });
      try {
        await client.send(new DeleteTableCommand({ TableName: shared.tableName }));
      } catch (error) {
        // A start that failed before the table was made leaves nothing to delete.
        if (!(error instanceof ResourceNotFoundException)) throw error;
      } finally {
        client.destroy();
      }
    },
  };
}

/** The local token secret, made once and kept, so that reply addresses stay valid across restarts. */
function tokenSecretIn(dataDir: string): string {
  const file = path.join(dataDir, 'token-secret');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}
