import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { HttpFetcher } from '../shared/platform/adapters/http-fetcher';
import { lazyPort } from '../shared/platform/adapters/lazy-port';
import { NodeDnsResolver } from '../shared/platform/adapters/node-dns-resolver';
import { SqsQueue } from '../shared/platform/adapters/sqs-queue';
import { systemClock } from '../shared/platform/adapters/system-clock';
import { config, configGeneration, type Config } from '../shared/platform/core/config';
import { QueueEventPublisher } from '../shared/platform/adapters/queue-event-publisher';
import { tokenSecretOf } from '../shared/platform/core/secrets';
import { createDocumentClient } from '../shared/platform/store/client';
import type { Services } from '../shared/platform/core/dependencies';
import { automationDispatcher } from '../shared/marketing/automations/triggers/dispatcher';

export type { Services } from '../shared/platform/core/dependencies';

let built: { services: Services; generation: number } | undefined;
let overrides: Partial<Services> = {};

/**
 * The process-wide services, rebuilt after a refreshConfig (keeping what tests replaced). SDK
 * clients pick their endpoints from the standard AWS_ENDPOINT_URL_<SERVICE> variables, which is how
 * the local cloud points them at the emulators.
 */
export function services(): Services {
  if (!built || built.generation !== configGeneration()) {
    built = { services: { ...build(config()), ...overrides }, generation: configGeneration() };
  }
  return built.services;
}

/**
 * The adapters over AWS. Variables only some functions are given (queue URLs, the bucket) are read at
 * first use. DynamoDB and SQS serve nearly every function and load with it; SES, S3 and CloudFront
 * (adapter and SDK client) load on first use, so the functions that never call them start faster.
 */
function build(cfg: Config): Services {
  let ses: Promise<SESv2Client> | undefined;
  const sesClient = () => (ses ??= import('@aws-sdk/client-sesv2').then(({ SESv2Client }) => new SESv2Client({})));
  const queue = SqsQueue.fromConfig(new SQSClient({}), cfg);
  const distribution = cfg.TRACKING_DISTRIBUTION_ID;
  return {
    config: cfg,
    db: { doc: createDocumentClient(new DynamoDBClient({})), tableName: cfg.TABLE_NAME },
    queue,
    mailer: lazyPort(async () => new (await import('../shared/platform/adapters/ses-mailer')).SesMailer(await sesClient(), cfg.SES_CONFIGURATION_SET), { sendRaw: true }),
    blobs: lazyPort(
      async () => {
        const [{ S3BlobStore }, { S3Client }] = await Promise.all([import('../shared/platform/adapters/s3-blob-store'), import('@aws-sdk/client-s3')]);
        const client = new S3Client({
          forcePathStyle: cfg.S3_FORCE_PATH_STYLE === 'true',
          // Whole-body checksums are enough for small payload objects and work with every S3 emulator.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        });
        return new S3BlobStore(client, () => cfg.PAYLOAD_BUCKET);
      },
      { put: true, get: true, size: true, readFrom: true, uploadUrl: true, downloadUrl: true, startUpload: true, uploadPart: true, completeUpload: true },
    ),
    fetcher: new HttpFetcher({ allowLoopback: cfg.ALLOW_PRIVATE_URLS === 'true' }),
    clock: systemClock,
    identities: lazyPort(
      async () => new (await import('../shared/platform/adapters/ses-identity-provider')).SesIdentityProvider(await sesClient(), cfg.SES_CONFIGURATION_SET, cfg.SES_IDENTITY_OWNER),
      { ensureDomainIdentity: true, setMailFrom: true, getIdentity: true, deleteIdentity: true, createAddressIdentity: true },
    ),
    tenants: lazyPort(
      async () => new (await import('../shared/platform/adapters/ses-tenant-provider')).SesTenantProvider(await sesClient(), cfg.SES_CONFIGURATION_SET),
      { ensureTenant: true, getTenant: true, associateIdentity: true, associateConfigurationSet: true },
    ),
    events: new QueueEventPublisher(queue),
    dns: new NodeDnsResolver(cfg.DNS_SERVERS?.split(',').map((s) => s.trim()).filter(Boolean)),
    edge: distribution
      ? lazyPort(async () => {
          const [{ CloudFrontTrackingEdge }, { CloudFrontClient }] = await Promise.all([import('../shared/platform/adapters/cloudfront-tracking-edge'), import('@aws-sdk/client-cloudfront')]);
          return new CloudFrontTrackingEdge(new CloudFrontClient({}), distribution, cfg.TRACKING_CONNECTION_GROUP_ID);
        }, { serve: true })
      : undefined,
    tokenSecret: tokenSecretOf(cfg),
    timers: lazyPort(async () => {
      const [{ SchedulerTimers }, { SchedulerClient }] = await Promise.all([import('../shared/platform/adapters/scheduler-timers'), import('@aws-sdk/client-scheduler')]);
      // Only the campaigns queue is a timer target (lib/campaign-timers.ts makes the role).
      return new SchedulerTimers(new SchedulerClient({}), () => {
        const queueArn = cfg.CAMPAIGNS_QUEUE_ARN;
        const roleArn = cfg.CAMPAIGN_TIMER_ROLE_ARN;
        if (!queueArn || !roleArn) throw new Error('One-time timers need CAMPAIGNS_QUEUE_ARN and CAMPAIGN_TIMER_ROLE_ARN (set for the campaign engine by the stack)');
        return { queueArn, roleArn };
      });
    }, { fireAt: true }),
    account: lazyPort(async () => new (await import('../shared/platform/adapters/ses-account')).SesAccount(await sesClient()), { maxSendRate: true }),
    // Read through services() at each signal, so a test's replaced queue or clock is the one used.
    leadSignals: automationDispatcher({
      get db() {
        return services().db;
      },
      get clock() {
        return services().clock;
      },
      get queue() {
        return services().queue;
      },
    }),
  };
}

/** Replaces some services (tests inject a fixed clock or a failing mailer). */
export function overrideServices(replaced: Partial<Services>): void {
  overrides = { ...overrides, ...replaced };
  built = { services: { ...services(), ...replaced }, generation: configGeneration() };
}

/** Forgets the built services and every override (tests start from the real adapters again). */
export function resetServices(): void {
  overrides = {};
  built = undefined;
}
