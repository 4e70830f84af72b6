/**
 * What a function may touch in AWS and which settings it reads: declared by each route module and
 * each worker, turned into IAM grants and environment by lib/access.ts.
 */
import type { ConfigKey } from './config';
import type { QueueName } from './queues';

/**
 * Deploy-time settings the stack may give a function (variables of shared/platform/core/config.ts). A function is
 * given those its access lists, and LOG_LEVEL, since every function logs.
 */
export const settingKeys = [
  'SERVICE_NAME',
  'RECEIVING',
  'INBOUND_DOMAIN',
  'ACTIVITY_RETENTION_DAYS',
  'DEFAULT_MONTHLY_QUOTA',
  'TRACKING_BASE_URL',
  'TRACKING_HOST',
  'DMARC_REPORTS_DOMAIN',
  'INBOUND_BUCKET',
  'PROJECT_METRICS',
  'CAMPAIGN_SEND_RATE',
  'TRANSACTIONAL_RATE_SHARE',
  'PROVIDER_RATES',
  'LOG_LEVEL',
] as const satisfies readonly ConfigKey[];

export type Setting = (typeof settingKeys)[number];

/**
 * What one function may do and which settings it reads, beyond reading the token secret, which every
 * function does. Its environment follows: TABLE_NAME, the URL of each queue it enqueues to,
 * PAYLOAD_BUCKET with payload access, SES_CONFIGURATION_SET with SES access, TOKEN_SECRET_ARN,
 * LOG_LEVEL and its settings; nothing else.
 */
export interface FunctionAccess {
  /** Table access: `read` for query-only functions. */
  readonly table: 'read' | 'readWrite';
  /**
   * Queues the function enqueues to.
   * @default - none
   */
  readonly enqueue?: readonly QueueName[];
  /**
   * Payload bucket access: the send group stores payloads (`put`), the send worker reads them back
   * (`read`: GetObject, and ListBucket so that a missing key answers 404, not 403); `readWrite` is both
   * (no delete).
   * @default - none
   */
  readonly payloads?: 'put' | 'read' | 'readWrite';
  /**
   * May call SES SendEmail through the configuration set.
   * @default false
   */
  readonly sesSend?: boolean;
  /**
   * SES identities: `manage` creates them (tagged as this deployment's) and changes or deletes only
   * those this deployment made (domain registration, recreate, senders); `read` reads their state
   * (verification checks).
   * @default none
   */
  readonly sesIdentities?: 'manage' | 'read';
  /**
   * SES tenants (a project's own reputation): `manage` creates them and associates identities and
   * the configuration set with them; `read` reads a tenant's sending status (health).
   * @default none
   */
  readonly sesTenants?: 'manage' | 'read';
  /**
   * May create one-time EventBridge Scheduler schedules that send to the campaigns queue, and read
   * the SES account's send rate (the campaign engine).
   * @default false
   */
  readonly campaignTimers?: boolean;
  /**
   * Settings the function's code reads (LOG_LEVEL aside); test/unit/lib/function-settings.test.ts
   * checks the list against the modules each function imports.
   * @default - none
   */
  readonly settings?: readonly Exclude<Setting, 'LOG_LEVEL'>[];
}

const TABLE_RANK = { read: 0, readWrite: 1 } as const;

/** The access of a function that runs each of `needs`: the union of what each may do and read. */
export function mergeAccess(needs: readonly FunctionAccess[]): FunctionAccess {
  if (needs.length === 0) throw new Error('A function needs the access of at least one route');
  const union = <T>(lists: readonly (readonly T[] | undefined)[]): T[] | undefined => {
    const all = [...new Set(lists.flatMap((l) => l ?? []))];
    return all.length > 0 ? all : undefined;
  };
  const payloads = new Set(needs.map((n) => n.payloads).filter((p) => p !== undefined));
  const reads = payloads.has('read') || payloads.has('readWrite');
  const puts = payloads.has('put') || payloads.has('readWrite');
  const merged: FunctionAccess = {
    table: needs.some((n) => TABLE_RANK[n.table] === 1) ? 'readWrite' : 'read',
    enqueue: union(needs.map((n) => n.enqueue)),
    payloads: reads && puts ? 'readWrite' : reads ? 'read' : puts ? 'put' : undefined,
    sesSend: needs.some((n) => n.sesSend) || undefined,
    sesIdentities: needs.some((n) => n.sesIdentities === 'manage') ? 'manage' : needs.some((n) => n.sesIdentities === 'read') ? 'read' : undefined,
    sesTenants: needs.some((n) => n.sesTenants === 'manage') ? 'manage' : needs.some((n) => n.sesTenants === 'read') ? 'read' : undefined,
    campaignTimers: needs.some((n) => n.campaignTimers) || undefined,
    settings: union(needs.map((n) => n.settings)),
  };
  return Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)) as unknown as FunctionAccess;
}
