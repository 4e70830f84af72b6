import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { CloudFrontTrackingEdge } from './adapters/cloudfront-tracking-edge';
import { HttpFetcher } from './adapters/http-fetcher';
import { SesIdentityProvider } from './adapters/ses-identity-provider';
import { NodeDnsResolver } from './adapters/node-dns-resolver';
import { S3BlobStore } from './adapters/s3-blob-store';
import { SesMailer } from './adapters/ses-mailer';
import { SqsQueue } from './adapters/sqs-queue';
import { systemClock } from './adapters/system-clock';
import { config, configGeneration, type Config } from './config';
import type { Clock, DnsResolver, Fetcher, FileStore, Mailer, Queue, TrackingEdge } from './ports';
import type { IdentityProvider } from './domains/identity-provider';
import type { EventPublisher } from './events/events';
import { QueueEventPublisher } from './events/queue-event-publisher';
import { tokenSecretOf, type TokenSecret } from './secrets';
import { createDocumentClient, type Db } from './store/client';

/** Everything a service may need, built once per process from the configuration. */
export interface Services {
  readonly config: Config;
  readonly db: Db;
  readonly queue: Queue;
  readonly mailer: Mailer;
  readonly blobs: FileStore;
  readonly fetcher: Fetcher;
  readonly clock: Clock;
  readonly identities: IdentityProvider;
  readonly events: EventPublisher;
  readonly dns: DnsResolver;
  /** Serves tracking domains over HTTPS; undefined where no edge is deployed (no TRACKING_DISTRIBUTION_ID). */
  readonly edge: TrackingEdge | undefined;
  /** The secret that signs Reply-To, tracking, unsubscribe and view tokens (read on first use). */
  readonly tokenSecret: TokenSecret;
}

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

/** The adapters over AWS. Variables only some functions are given (queue URLs, the bucket) are read at first use. */
function build(cfg: Config): Services {
  const ses = new SESv2Client({});
  const queue = SqsQueue.fromConfig(new SQSClient({}), cfg);
  return {
    config: cfg,
    db: { doc: createDocumentClient(new DynamoDBClient({})), tableName: cfg.TABLE_NAME },
    queue,
    mailer: new SesMailer(ses, cfg.SES_CONFIGURATION_SET),
    blobs: new S3BlobStore(
      new S3Client({
        forcePathStyle: cfg.S3_FORCE_PATH_STYLE === 'true',
        // Whole-body checksums are enough for small payload objects and work with every S3 emulator.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
      () => cfg.PAYLOAD_BUCKET,
    ),
    fetcher: new HttpFetcher({ allowLoopback: cfg.ALLOW_PRIVATE_URLS === 'true' }),
    clock: systemClock,
    identities: new SesIdentityProvider(ses, cfg.SES_CONFIGURATION_SET),
    events: new QueueEventPublisher(queue),
    dns: new NodeDnsResolver(cfg.DNS_SERVERS?.split(',').map((s) => s.trim()).filter(Boolean)),
    edge: cfg.TRACKING_DISTRIBUTION_ID
      ? new CloudFrontTrackingEdge(new CloudFrontClient({}), cfg.TRACKING_DISTRIBUTION_ID, cfg.TRACKING_CONNECTION_GROUP_ID)
      : undefined,
    tokenSecret: tokenSecretOf(cfg),
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
