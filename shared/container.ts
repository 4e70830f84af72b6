import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SQSClient } from '@aws-sdk/client-sqs';
import { HttpFetcher } from './adapters/http-fetcher';
import { SesIdentityProvider } from './adapters/ses-identity-provider';
import { NodeDnsResolver } from './adapters/node-dns-resolver';
import { S3BlobStore } from './adapters/s3-blob-store';
import { SesMailer } from './adapters/ses-mailer';
import { SqsQueue } from './adapters/sqs-queue';
import { systemClock } from './adapters/system-clock';
import { config, type Config } from './config';
import type { BlobStore, Clock, DnsResolver, Fetcher, Mailer, Queue } from './ports';
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
  readonly blobs: BlobStore;
  readonly fetcher: Fetcher;
  readonly clock: Clock;
  readonly identities: IdentityProvider;
  readonly events: EventPublisher;
  readonly dns: DnsResolver;
  /** The secret that signs Reply-To, tracking, unsubscribe and view tokens (read on first use). */
  readonly tokenSecret: TokenSecret;
}

let built: Services | undefined;

/**
 * The process-wide services. SDK clients pick their endpoints from the standard
 * AWS_ENDPOINT_URL_<SERVICE> variables, which is how the local cloud points them at the emulators.
 */
export function services(): Services {
  if (!built) {
    const cfg = config();
    const ses = new SESv2Client({});
    const queue = SqsQueue.fromEnv(new SQSClient({}));
    built = {
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
        cfg.PAYLOAD_BUCKET,
      ),
      fetcher: new HttpFetcher({ allowPrivate: cfg.ALLOW_PRIVATE_URLS === 'true' }),
      clock: systemClock,
      identities: new SesIdentityProvider(ses, cfg.SES_CONFIGURATION_SET),
      events: new QueueEventPublisher(queue),
      dns: new NodeDnsResolver(cfg.DNS_SERVERS?.split(',').map((s) => s.trim()).filter(Boolean)),
      tokenSecret: tokenSecretOf(cfg),
    };
  }
  return built;
}

/** Replaces some services (tests inject a fixed clock or a failing mailer). */
export function overrideServices(overrides: Partial<Services>): void {
  built = { ...services(), ...overrides };
}

/** Forgets the built services (the local cloud rebuilds them after changing the environment). */
export function resetServices(): void {
  built = undefined;
}
