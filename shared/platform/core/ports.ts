/** Ports: what the domain needs from the outside world. Adapters implement them for AWS and local. */
import type { QueueName } from './queues';

/** Current time; injected so that tests can fix it. */
export interface Clock {
  now(): Date;
}

/** A message queue (SQS). */
export interface Queue {
  /** Sends one message; `delaySeconds` (0 to 900) postpones its delivery. */
  send(queue: QueueName, body: unknown, options?: { delaySeconds?: number }): Promise<void>;
  /**
   * Sends many messages, ten per request (SQS bills a batch of up to ten as one request);
   * `delaySeconds[i]` (0 to 900) postpones message i.
   */
  sendBatch(queue: QueueName, bodies: unknown[], options?: { delaySeconds?: readonly number[] }): Promise<void>;
  /** Makes a received message visible again after `seconds` (how a failed delivery waits for its retry). */
  changeVisibility(queue: QueueName, receiptHandle: string, seconds: number): Promise<void>;
}

/** Raw message handed to the mail provider (SES v2 SendEmail with raw content). */
export interface OutgoingMail {
  readonly raw: Buffer;
  readonly from: string;
  /** Every envelope recipient (to, cc and bcc). */
  readonly recipients: readonly string[];
  /** Message tags (SES `EmailTags`), used to find the activity from provider events. */
  readonly tags: Readonly<Record<string, string>>;
  /** The SES tenant the mail is sent through (the project's own reputation), when it has one. */
  readonly tenantName?: string;
}

/** Why the provider refused a mail: decides between retrying and failing for good. */
export type MailerFailureKind = 'throttled' | 'transient' | 'rejected' | 'sender_not_verified' | 'quota_exceeded';

/** A provider failure, classified at the adapter edge. */
export class MailerError extends Error {
  constructor(
    readonly kind: MailerFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MailerError';
  }
}

/** The mail provider (SES v2). */
export interface Mailer {
  /** Sends a raw MIME message and returns the provider's message id; throws MailerError. */
  sendRaw(mail: OutgoingMail): Promise<{ messageId: string }>;
}

/** Object storage (S3) for payloads too large for a queue message, and for uploaded lead imports. */
export interface BlobStore {
  put(key: string, body: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
}

/** A blob store that also serves large files: uploads by URL, and reads that stream from an offset (lead imports). */
export interface FileStore extends BlobStore {
  /** The object's size in bytes; undefined when there is no such object. */
  size(key: string): Promise<number | undefined>;
  /** The object from byte `offset` (inclusive) to its end, as a stream: a large file is never held in memory. */
  readFrom(key: string, offset: number): Promise<NodeJS.ReadableStream>;
  /** A URL that lets its holder PUT the object once, without credentials, for `expiresInSeconds`. */
  uploadUrl(key: string, expiresInSeconds: number): Promise<string>;
  /** A URL that lets its holder GET the object, as a download named `filename`, for `expiresInSeconds`. */
  downloadUrl(key: string, expiresInSeconds: number, filename: string): Promise<string>;
  /** Starts a multipart upload of a large object written in parts (campaign exports); returns its upload id. */
  startUpload(key: string, contentType: string): Promise<string>;
  /** Uploads part `partNumber` (1 to 10,000; all but the last at least 5 MB); returns its ETag. Uploading a number again replaces that part. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string>;
  /** Assembles the listed parts, in ascending part order, into the object; parts not listed are discarded. */
  completeUpload(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<void>;
}

/** Why a URL could not be fetched: distinguishes a refused address from a network failure. */
export class FetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FetchError';
  }
}

/** How much and how long one fetch may take. */
export interface FetchLimits {
  /** Largest body accepted. */
  maxBytes: number;
  /** Deadline of the whole fetch, redirects included, from its start. */
  timeoutMs: number;
  /** Ends the fetch early (a caller's own deadline); the fetch rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Told of every chunk as it arrives; throwing stops the download, and the fetch rejects with that error. */
  onBytes?: (bytes: number) => void;
}

/** Fetches public URLs (attachments), refusing private addresses and oversized bodies. */
export interface Fetcher {
  /** The body and content type; throws FetchError beyond `maxBytes` or `timeoutMs`. */
  fetch(url: string, limits: FetchLimits): Promise<{ body: Buffer; contentType?: string }>;
}

/** DNS lookups (the DNS sweep and Domain Connect discovery); resolvers are injectable for tests. */
export interface DnsResolver {
  /** TXT records at `name`, each joined from its strings; [] when the name has none. */
  resolveTxt(name: string): Promise<string[]>;
  /** MX records at `name`; [] when none. */
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  /** CNAME targets at `name`; [] when none. */
  resolveCname(name: string): Promise<string[]>;
  /** The PTR names of an IP address (reverse DNS); [] when none. Optional: a resolver without it gives no names. */
  reverse?(ip: string): Promise<string[]>;
}

/** Where serving one tracking domain over HTTPS stands at the edge. */
export interface EdgeDomainState {
  /** `provisioning`: the tenant or its certificate is not ready; `active`: https://<domain> serves; `failed`: see `detail`. */
  readonly status: 'provisioning' | 'active' | 'failed';
  /** The edge's own words when it is not active (certificate status, deployment status). */
  readonly detail?: string;
}

/**
 * The edge that serves customers' tracking domains over HTTPS (CloudFront SaaS Manager in AWS: one
 * distribution tenant with a CloudFront-managed certificate per domain; emulated in the local cloud).
 */
export interface TrackingEdge {
  /**
   * Makes sure the edge serves `domain` (whose CNAME already points at the service) and says how far
   * it got. Idempotent: the tenant is found by its domain, so a repeat after a crash creates nothing twice.
   */
  serve(domain: string): Promise<EdgeDomainState>;
}

/**
 * One-time timers: puts a message on a queue at a given instant (EventBridge Scheduler's one-time
 * `at(...)` schedules in AWS; an in-process timer in the local cloud). Used where a wait is longer
 * than SQS's 15-minute delay: a campaign's start at `scheduledFor`, its next batch of `batchMode`.
 */
export interface Timers {
  /**
   * Sends `body` to `queue` at `at`. `name` identifies the timer: setting the same name twice sets
   * one timer (a replayed engine step schedules nothing twice).
   */
  fireAt(name: string, at: Date, queue: QueueName, body: unknown): Promise<void>;
}

/** The sending account's limits (SES GetAccount). */
export interface SendingAccount {
  /** Mails per second the account may send (SES `SendQuota.MaxSendRate`). */
  maxSendRate(): Promise<number>;
}

/** The mail provider's view of an identity (SES v2 GetEmailIdentity, reduced to what we use). */
export type ProviderStatus = 'PENDING' | 'SUCCESS' | 'FAILED' | 'TEMPORARY_FAILURE' | 'NOT_STARTED';

export interface IdentityState {
  /** The provider will send for this identity (may precede DKIM success). */
  verifiedForSending: boolean;
  verificationStatus: ProviderStatus;
  dkimStatus: ProviderStatus;
  /** Custom MAIL FROM status; NOT_STARTED when none is set. */
  mailFromStatus: ProviderStatus;
  dkimTokens: string[];
  /** Which deployment and project created the identity (its tags); undefined parts: not ours to know. */
  createdBy: IdentityCreator;
}

/** The tags this service puts on every identity it creates, read back from the provider. */
export interface IdentityCreator {
  /** The deployment (stack) that created it; undefined for an identity no deployment of ours created. */
  deployment?: string;
  /** The project it was created for. */
  project?: string;
}

/**
 * Tag keys of the identities this service creates. The deployment tag is what the stack's IAM
 * policy conditions identity changes on (lib/ses.ts), so a function can only alter or delete the
 * identities its own deployment made.
 */
export const IDENTITY_TAGS = { deployment: 'mailroom:stack', project: 'mailroom:project' } as const;

/** Sending identities at the provider: domains with Easy DKIM and a custom MAIL FROM, and single addresses. */
export interface IdentityProvider {
  /**
   * Creates a domain identity with Easy DKIM, tagged for this deployment and `projectId`, or returns
   * the existing one's tokens and creator (reconciliation).
   */
  ensureDomainIdentity(domain: string, projectId: string): Promise<{ dkimTokens: string[]; created: boolean; createdBy: IdentityCreator }>;
  /** Sets the custom MAIL FROM domain (`send.<domain>`). */
  setMailFrom(domain: string, mailFromDomain: string): Promise<void>;
  /** The identity's current state, or undefined if the provider does not know it. */
  getIdentity(identity: string): Promise<IdentityState | undefined>;
  /** Deletes an identity (missing is fine). */
  deleteIdentity(identity: string): Promise<void>;
  /** Creates an address identity tagged for this deployment and `projectId`; the provider mails the owner a verification link. */
  createAddressIdentity(email: string, projectId: string): Promise<void>;
}

/** An SES tenant as the provider reports it. */
export interface TenantState {
  readonly name: string;
  readonly id: string;
  readonly arn: string;
  /** SES's `SendingStatus`: ENABLED, REINSTATED or DISABLED. */
  readonly sendingStatus: string;
}

/**
 * SES tenants (docs/deliverability.md): a project's own reputation container. Each call is
 * idempotent, so a provisioning that crashed half way is completed by running it again.
 */
export interface TenantProvider {
  /** Creates the tenant unless it exists, and answers it. */
  ensureTenant(name: string): Promise<TenantState>;
  /** The tenant, or undefined when SES does not know it. */
  getTenant(name: string): Promise<TenantState | undefined>;
  /** Associates an identity (a domain or an address) with the tenant; already associated is fine. */
  associateIdentity(tenant: TenantState, identity: string): Promise<void>;
  /** Associates the deployment's configuration set with the tenant; already associated is fine. */
  associateConfigurationSet(tenant: TenantState): Promise<void>;
}

/** Outbound events (part 6): the envelope every webhook receives. */
export interface ServiceEvent {
  event: string;
  /** Dispatch time. */
  timestamp: string;
  project_id: string;
  is_test?: boolean;
  environment?: string;
  data: Record<string, unknown>;
}

/** Where events go: the events queue, from which webhooks are fanned out to the project's URLs. */
export interface EventPublisher {
  publish(event: ServiceEvent): Promise<void>;
}
