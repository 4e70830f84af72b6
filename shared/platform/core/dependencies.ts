import type { Config } from './config';
import type { Clock, DnsResolver, EventPublisher, Fetcher, FileStore, IdentityProvider, Mailer, Queue, SendingAccount, TenantProvider, Timers, TrackingEdge } from './ports';
import type { LeadSignals } from './lead-signals';
import type { TokenSecret } from './secrets';
import type { Db } from '../store/client';

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
  /** SES tenants: a project's own reputation, when it is put on one. */
  readonly tenants: TenantProvider;
  readonly events: EventPublisher;
  readonly dns: DnsResolver;
  /** Serves tracking domains over HTTPS; undefined where no edge is deployed (no TRACKING_DISTRIBUTION_ID). */
  readonly edge: TrackingEdge | undefined;
  /** The secret that signs Reply-To, tracking, unsubscribe and view tokens (read on first use). */
  readonly tokenSecret: TokenSecret;
  /** One-time timers (EventBridge Scheduler): the campaign engine's waits longer than SQS's 15 minutes. */
  readonly timers: Timers;
  /** The SES account's send rate, which the campaign engine paces against. */
  readonly account: SendingAccount;
  /** Where the audience reports what happened to leads (a lead created, a tag added, an event, a segment entered or left): automations act on it. */
  readonly leadSignals: LeadSignals;
}

/**
 * The dependencies a use case declares it needs, by name: `deps: Needs<'db' | 'clock'>`. A use case
 * takes only these (never the whole of Services), so its signature says what it touches and a test
 * builds only those.
 */
export type Needs<K extends keyof Services> = Pick<Services, K>;
