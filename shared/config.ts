import { z } from 'zod';

/** Environment read once at cold start; a missing variable fails with its name. */
const schema = z.object({
  TABLE_NAME: z.string().min(3),
  SEND_QUEUE_URL: z.string().url(),
  PAYLOAD_BUCKET: z.string().min(3),
  /** SES configuration set every send uses, so that SES events reach us. */
  SES_CONFIGURATION_SET: z.string().optional(),
  /** Shown in the default subject: `Email from <SERVICE_NAME>`. */
  SERVICE_NAME: z.string().default('Mailroom'),
  /** Domain of the Reply-To addresses that carry a per-activity token. */
  INBOUND_DOMAIN: z.string().default('reply.mailroom.local'),
  /** Secret for signed tokens (Reply-To, later tracking and unsubscribe links), given directly... */
  TOKEN_SECRET: z.string().min(16).optional(),
  /** ...or as a Secrets Manager secret read once at cold start (the CDK stack does this). */
  TOKEN_SECRET_ARN: z.string().optional(),
  /** Local mode and tests may fetch attachments from loopback; never set in AWS. */
  ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  /** Days an activity record and its body are kept. */
  ACTIVITY_RETENTION_DAYS: z.coerce.number().int().positive().default(90),
  /** Path-style S3 addressing, for the local S3 emulator. */
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
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
