import * as z from './zod';
import { queues, type QueueName } from './queues';

/** An empty variable reads as an unset one (a stack may pass `''` for "no value"). */
function emptyAsUnset<T extends z.ZodMiniType>(schema: T) {
  return z.pipe(
    z.transform((v: unknown) => (v === '' ? undefined : v)),
    schema,
  );
}

/**
 * The service's configuration: the one reader of `process.env` in product code.
 *
 * Each variable has its own schema and is validated on first use, then kept: a function fails with
 * the variable's name when it reads one that is missing or invalid, and never because of one it does
 * not use (the stack gives each function only the variables it reads; see lib/access.ts).
 */
const shape = {

  TABLE_NAME: z.string().check(z.minLength(3)),
  /** The queues' URLs (the `urlEnv` of each queue in shared/platform/core/queues.ts). */
  SEND_QUEUE_URL: z.url(),
  EVENTS_QUEUE_URL: z.url(),
  WEBHOOKS_QUEUE_URL: z.url(),
  SES_EVENTS_QUEUE_URL: z.url(),
  SCHEDULED_QUEUE_URL: z.url(),
  AUDIENCE_QUEUE_URL: z.url(),
  FANOUT_QUEUE_URL: z.url(),
  BATCH_SEND_QUEUE_URL: z.url(),
  IMPORTS_QUEUE_URL: z.url(),
  CAMPAIGNS_QUEUE_URL: z.url(),
  AUTOMATIONS_QUEUE_URL: z.url(),
  EXPORTS_QUEUE_URL: z.url(),
  PAYLOAD_BUCKET: z.string().check(z.minLength(3)),
  /**
   * The campaigns queue's ARN and the role EventBridge Scheduler assumes to send to it (the engine's
   * one-time timers). Only the campaign engine has them (lib/access.ts); the local cloud's timers
   * fire in process and need neither.
   */
  CAMPAIGNS_QUEUE_ARN: z.optional(z.string().check(z.minLength(3))),
  CAMPAIGN_TIMER_ROLE_ARN: z.optional(z.string().check(z.minLength(3))),
  /**
   * Mails a second all campaigns of the deployment may send together, before the transactional
   * share is set aside; unset (or empty): the account's SES MaxSendRate (docs/campaigns.md).
   */
  CAMPAIGN_SEND_RATE: emptyAsUnset(z.optional(z.coerce.number().check(z.positive()))),
  /**
   * Campaign mails a minute per mailbox provider, every campaign of the deployment together: a JSON
   * object over the defaults, e.g. `{"google":3000,"yahoo":1000,"other":null}` (docs/campaigns.md,
   * shared/mail-pipeline/delivery/mailbox-provider.ts parses it); unset: the defaults.
   */
  PROVIDER_RATES: emptyAsUnset(z.optional(z.string())),
  /** Share of the send rate kept for transactional and API mail, which campaigns never take. */
  TRANSACTIONAL_RATE_SHARE: z._default(z.coerce.number().check(z.gte(0), z.lt(1)), 0.3),
  /** SES configuration set every send uses, so that SES events reach us. */
  SES_CONFIGURATION_SET: z.optional(z.string()),
  /**
   * This deployment's mark, tagged on every SES identity it creates (`mailroom:stack`): its table's
   * generated name, new at each creation of the stack. The stack's IAM policy lets functions change
   * or delete only identities with this tag (lib/ses.ts).
   */
  SES_IDENTITY_OWNER: z._default(z.string().check(z.minLength(1)), 'mailroom-local'),
  /** Shown in the default subject: `Email from <SERVICE_NAME>`. */
  SERVICE_NAME: z._default(z.string(), 'Mailroom'),
  /**
   * Whether this deployment receives mail (the stack's `inboundDomain`; the local cloud always does).
   * `off`: mail carries no reply-token Reply-To and no `mailto:` List-Unsubscribe, reply domains are
   * refused, and DMARC records name a reports address only when DMARC_REPORTS_DOMAIN is set.
   */
  RECEIVING: z._default(z.enum(['on', 'off']), 'on'),
  /** Domain of the Reply-To addresses that carry a per-activity token. */
  INBOUND_DOMAIN: z._default(z.string(), 'reply.mailroom.local'),
  /** Bucket the SES receipt rule writes inbound mail to (under `inbound/`); defaults to PAYLOAD_BUCKET (local mode). */
  INBOUND_BUCKET: z.optional(z.string()),
  /** Secret for signed tokens (Reply-To, later tracking and unsubscribe links), given directly... */
  TOKEN_SECRET: z.optional(z.string().check(z.minLength(16))),
  /** ...or as a Secrets Manager secret read once at cold start (the CDK stack does this). */
  TOKEN_SECRET_ARN: z.optional(z.string()),
  /** Local mode and tests may fetch attachments from loopback; never set in AWS. */
  ALLOW_PRIVATE_URLS: z._default(z.enum(['true', 'false']), 'false'),
  /** Days an activity record and its body are kept. */
  ACTIVITY_RETENTION_DAYS: z._default(z.coerce.number().check(z.int(), z.positive()), 90),
  /**
   * Mails a project may send per UTC calendar month, live and test together, unless the project has
   * its own `monthly_quota`. Unset (or empty): unlimited. See docs/quota.md.
   */
  DEFAULT_MONTHLY_QUOTA: emptyAsUnset(z.optional(z.coerce.number().check(z.int(), z.nonnegative()))),
  /**
   * `off` leaves the project_id dimension out of the workers' mail metrics: only deployment-wide
   * totals, a fixed 4 CloudWatch metrics, for deployments with many busy projects (docs/cost.md).
   */
  PROJECT_METRICS: z._default(z.enum(['on', 'off']), 'on'),
  /** Path-style S3 addressing, for the local S3 emulator. */
  S3_FORCE_PATH_STYLE: z._default(z.enum(['true', 'false']), 'false'),
  /** AWS region; names SES's regional hosts in DNS records. */
  AWS_REGION: z._default(z.string(), 'us-east-1'),
  /** Label of the provider's verification TXT record (`_<label>`). */
  PROVIDER_LABEL: z._default(z.string(), 'amazonses'),
  /** Host the DKIM CNAMEs point to. */
  PROVIDER_DKIM_HOST: z._default(z.string(), 'dkim.amazonses.com'),
  /** Host included by the SPF records. */
  PROVIDER_SPF_HOST: z._default(z.string(), 'amazonses.com'),
  /** MX host of the custom MAIL FROM domain; defaults to SES's feedback host of the region. */
  PROVIDER_FEEDBACK_HOST: z.optional(z.string()),
  /** MX host that receives replies (SES inbound); defaults to the region's. */
  PROVIDER_INBOUND_HOST: z.optional(z.string()),
  /** Domain of the mailbox that receives DMARC reports; defaults to INBOUND_DOMAIN when RECEIVING is on, else none (no `rua`). */
  DMARC_REPORTS_DOMAIN: z.optional(z.string()),
  /** Public base URL of the API, for open and click links (see shared/mail-pipeline/tracking/tracking-service.ts). */
  TRACKING_BASE_URL: z.optional(z.url()),
  /**
   * Tracking domains (docs/decisions.md, "Tracking domains and TLS"). TRACKING_HOST: the host that
   * customers' tracking CNAMEs point to, a name the operator CNAMEs to the CloudFront connection group;
   * unset, tracking-domain registration is refused. The distribution and connection group serve them.
   */
  TRACKING_HOST: emptyAsUnset(z.optional(z.string().check(z.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i)))),
  TRACKING_DISTRIBUTION_ID: z.optional(z.string()),
  TRACKING_CONNECTION_GROUP_ID: z.optional(z.string()),
  /** Comma-separated DNS servers for the DNS sweep and Domain Connect discovery (host or host:port). */
  DNS_SERVERS: z.optional(z.string()),
  /** Domain Connect: our service provider id and service id (the template registered with DNS providers). */
  DOMAIN_CONNECT_PROVIDER_ID: z._default(z.string(), 'mailroom.dev'),
  DOMAIN_CONNECT_SERVICE_ID: z._default(z.string(), 'email'),
  /** Scheme used to reach a DNS provider's Domain Connect settings; https except in tests. */
  DOMAIN_CONNECT_SCHEME: z._default(z.enum(['https', 'http']), 'https'),
  LOG_LEVEL: z._default(z.enum(['debug', 'info', 'warn', 'error', 'silent']), 'info'),
  /** Powertools' own level variable; wins over LOG_LEVEL (the tests silence the logs with it). */
  POWERTOOLS_LOG_LEVEL: z.optional(z.string()),
  /**
   * Seconds between webhook attempts, a comma list (`1,1,1,1`): a test and operations knob, checked
   * by shared/notifications/webhooks/deliver-webhook.ts, which falls back to its default on a bad value.
   */
  WEBHOOK_BACKOFF_SECONDS: z.optional(z.string()),
};

export type Config = Readonly<z.infer<z.ZodMiniObject<typeof shape>>>;

/** The name of a configuration variable. */
export type ConfigKey = keyof Config;

/** Every configuration variable, in schema order. */
export const configKeys = Object.keys(shape) as ConfigKey[];

/** The variable through which functions learn a queue's URL; a queue whose variable is not in the schema does not compile. */
export function queueUrlKey(queue: QueueName): ConfigKey {
  return queues[queue].urlEnv;
}

/** Variables the AWS SDK reads itself (credentials, region, endpoints); the local cloud sets them too. */
export type SdkVariable = `AWS_${string}`;

/** Values to set (a string) or remove (undefined), by variable name. */
export type EnvironmentChanges = Readonly<Partial<Record<ConfigKey | SdkVariable, string | undefined>>>;

const cache = new Map<ConfigKey, unknown>();
let generation = 0;

/** One variable, validated against its schema on first use and kept until the next refresh. */
function read<K extends ConfigKey>(key: K): Config[K] {
  if (!cache.has(key)) {
    const parsed = shape[key].safeParse(process.env[key]);
    if (!parsed.success) throw new Error(`Invalid or missing environment variables: ${key}`);
    cache.set(key, parsed.data);
  }
  return cache.get(key) as Config[K];
}

// One object for the life of the process; its properties read through the cache, so a refresh reaches
// every holder. Spreading it reads (and validates) every variable.
const view = Object.defineProperties(
  {},
  Object.fromEntries(configKeys.map((key) => [key, { enumerable: true, get: () => read(key) }])),
) as Config;

/** The validated configuration; each variable is parsed on first use and kept for the life of the process. */
export function config(): Config {
  return view;
}

/** Whether the environment itself sets a variable (rather than the schema's default supplying it). */
export function isConfigured(key: ConfigKey): boolean {
  return (process.env[key] ?? '').trim() !== '';
}

/**
 * The one way to change the configuration of a running process (the local cloud and tests): applies
 * `changes` to the environment and forgets every validated value, so the services are rebuilt from
 * the new values on next use.
 */
export function refreshConfig(changes: EnvironmentChanges = {}): void {
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  cache.clear();
  generation += 1;
}

/** Counts refreshes, so that what is built from the configuration knows when to rebuild. */
export function configGeneration(): number {
  return generation;
}
