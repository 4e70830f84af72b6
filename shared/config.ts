import { z } from 'zod';

/** Environment read once at cold start; a missing variable fails with its name. */
const schema = z.object({
  TABLE_NAME: z.string().min(3),
  SEND_QUEUE_URL: z.string().url(),
  EVENTS_QUEUE_URL: z.string().url(),
  PAYLOAD_BUCKET: z.string().min(3),
  /** SES configuration set every send uses, so that SES events reach us. */
  SES_CONFIGURATION_SET: z.string().optional(),
  /** Shown in the default subject: `Email from <SERVICE_NAME>`. */
  SERVICE_NAME: z.string().default('Mailroom'),
  /** Domain of the Reply-To addresses that carry a per-activity token. */
  INBOUND_DOMAIN: z.string().default('reply.mailroom.local'),
  /** Bucket the SES receipt rule writes inbound mail to (under `inbound/`); defaults to PAYLOAD_BUCKET (local mode). */
  INBOUND_BUCKET: z.string().optional(),
  /** Secret for signed tokens (Reply-To, later tracking and unsubscribe links), given directly... */
  TOKEN_SECRET: z.string().min(16).optional(),
  /** ...or as a Secrets Manager secret read once at cold start (the CDK stack does this). */
  TOKEN_SECRET_ARN: z.string().optional(),
  /** Local mode and tests may fetch attachments from loopback; never set in AWS. */
  ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  /** Days an activity record and its body are kept. */
  ACTIVITY_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  /**
   * Mails a project may send per UTC calendar month, live and test together, unless the project has
   * its own `monthly_quota`. Unset (or empty): unlimited. See docs/quota.md.
   */
  DEFAULT_MONTHLY_QUOTA: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().nonnegative().optional()),
  /** Path-style S3 addressing, for the local S3 emulator. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  /** AWS region; names SES's regional hosts in DNS records. */
  AWS_REGION: z.string().default('us-east-1'),
  /** Label of the provider's verification TXT record (`_<label>`). */
  PROVIDER_LABEL: z.string().default('amazonses'),
  /** Host the DKIM CNAMEs point to. */
  PROVIDER_DKIM_HOST: z.string().default('dkim.amazonses.com'),
  /** Host included by the SPF records. */
  PROVIDER_SPF_HOST: z.string().default('amazonses.com'),
  /** MX host of the custom MAIL FROM domain; defaults to SES's feedback host of the region. */
  PROVIDER_FEEDBACK_HOST: z.string().optional(),
  /** MX host that receives replies (SES inbound); defaults to the region's. */
  PROVIDER_INBOUND_HOST: z.string().optional(),
  /** Domain of the service-owned mailbox that receives DMARC reports; defaults to INBOUND_DOMAIN. */
  DMARC_REPORTS_DOMAIN: z.string().optional(),
  /** Public base URL of the API, for open and click links (see shared/tracking/tracking-service.ts). */
  TRACKING_BASE_URL: z.string().url().optional(),
  /**
   * Tracking domains (docs/decisions.md, "Tracking domains and TLS"). TRACKING_HOST: the host that
   * customers' tracking CNAMEs point to, a name the operator CNAMEs to the CloudFront connection group;
   * unset, tracking-domain registration is refused. The distribution and connection group serve them.
   */
  TRACKING_HOST: z.preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i).optional()),
  TRACKING_DISTRIBUTION_ID: z.string().optional(),
  TRACKING_CONNECTION_GROUP_ID: z.string().optional(),
  /** Comma-separated DNS servers for the DNS sweep and Domain Connect discovery (host or host:port). */
  DNS_SERVERS: z.string().optional(),
  /** Domain Connect: our service provider id and service id (the template registered with DNS providers). */
  DOMAIN_CONNECT_PROVIDER_ID: z.string().default('mailroom.dev'),
  DOMAIN_CONNECT_SERVICE_ID: z.string().default('email'),
  /** Scheme used to reach a DNS provider's Domain Connect settings; https except in tests. */
  DOMAIN_CONNECT_SCHEME: z.enum(['https', 'http']).default('https'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
}).refine((env) => env.TOKEN_SECRET || env.TOKEN_SECRET_ARN, { path: ['TOKEN_SECRET'] });

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

/** The validated configuration; parsed on first use and kept for the life of the process. */
export function config(): Config {
  if (!cached) {
    const parsed = schema.safeParse(process.env);
    if (!parsed.success) {
      const names = parsed.error.issues.map((i) => i.path.join('.')).join(', ');
      throw new Error(`Invalid or missing environment variables: ${names}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Forget the cached configuration (the local cloud and tests change the environment). */
export function resetConfig(): void {
  cached = undefined;
}
