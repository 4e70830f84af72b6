import { Annotations, CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { ServiceResources, Setting } from './access';
import { CampaignTimers } from './campaign-timers';
import { Api } from './api';
import { Inbound } from './inbound';
import { Monitoring } from './monitoring';
import { Queues } from './queues';
import { Scheduling } from './scheduling';
import { TokenSecret } from './secrets';
import { SesSending } from './ses';
import { SesEvents } from './ses-events';
import { Storage } from './storage';
import type { ProjectFunction } from './project-function';
import { TrackingEdge } from './tracking-edge';
import { attachWorkers } from './workers';
import type { WorkerName } from '../shared/platform/core/routes';
import { parseProviderRates } from '../shared/mail-pipeline/delivery/provider-rates';

/**
 * Reply-To domain of the functions when neither the props nor the `inboundDomain` context give one:
 * receiving is then off, and this reserved name makes no mail reach anyone.
 */
export const DEFAULT_INBOUND_DOMAIN = 'reply.example.com';

/** The synth warning of a stack without receiving (no inbound domain). */
export const RECEIVING_OFF_WARNING =
  'Receiving is off (no inboundDomain): no SES receipt rule, no inbound bucket or function. Replies to sent mail and unsubscribes by mail reach nobody, ' +
  'and email.inbound is never published. Turn it on with -c inboundDomain=<domain> in a region where SES receives mail.';

/** The synth warning of a stack with neither receiving nor a DMARC reports domain. */
export const DMARC_WITHOUT_RECEIVING_WARNING =
  "DMARC reports have nowhere to go: without receiving, the DMARC records that registered domains publish send their reports (rua) to the default domain. " +
  'Set -c dmarcReportsDomain=<a domain whose mail you receive>, or turn receiving on with -c inboundDomain=<domain>.';

export interface EmailApiStackProps extends StackProps {
  /**
   * Product name shown in default subjects (SERVICE_NAME) and used as the API's name.
   * @default 'Mailroom'
   */
  readonly serviceName?: string;
  /**
   * Domain of the per-activity Reply-To addresses (INBOUND_DOMAIN).
   * @default the `inboundDomain` context value, else 'reply.example.com'
   */
  readonly inboundDomain?: string;
  /**
   * Keep the table, the bucket, the token secret and the log groups when the stack is deleted.
   * @default true
   */
  readonly retainData?: boolean;
  /**
   * LOG_LEVEL of every function.
   * @default - the functions' own default ('info')
   */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * ACTIVITY_RETENTION_DAYS of every function.
   * @default - the functions' own default (90)
   */
  readonly activityRetentionDays?: number;
  /**
   * DEFAULT_MONTHLY_QUOTA of every function: mails a project may send per UTC calendar month (live
   * and test together) unless it has its own `monthly_quota` (`npm run admin -- project quota`).
   * A whole number, 0 or more.
   * @default the `defaultMonthlyQuota` context value (`cdk deploy -c defaultMonthlyQuota=10000`), else unlimited
   */
  readonly defaultMonthlyQuota?: number;
  /**
   * TRACKING_HOST: the host name (one you own) that customers' tracking CNAMEs point to. Setting it
   * deploys the tracking edge (a CloudFront multi-tenant distribution); after the deploy, publish
   * `<trackingHost> CNAME <TrackingRoutingEndpoint output>`. Without it, registering a tracking
   * domain is refused with 409 TRACKING_NOT_CONFIGURED and links stay on the API's URL.
   * @default the `trackingHost` context value (`cdk deploy -c trackingHost=track.mail.example.com`), else none
   */
  readonly trackingHost?: string;
  /**
   * DMARC_REPORTS_DOMAIN: the domain in the `rua=mailto:` of the DMARC record each registered domain
   * is told to publish, so that its aggregate reports reach a mailbox the operator reads.
   * @default the `dmarcReportsDomain` context value (`cdk deploy -c dmarcReportsDomain=dmarc.example.com`), else the inbound domain
   */
  readonly dmarcReportsDomain?: string;
  /**
   * An existing SNS topic every alarm notifies (on alarm and back to OK).
   * @default the `alarmTopicArn` context value, else none
   */
  readonly alarmTopicArn?: string;
  /**
   * An address subscribed to a new alert topic, when no alarmTopicArn is given.
   * @default the `alarmEmail` context value, else none: alarms notify nobody
   */
  readonly alarmEmail?: string;
  /**
   * Per-project mail metrics (PROJECT_METRICS of the send, batch-send and ses-events workers):
   * `false` keeps only the deployment-wide totals, for many busy projects (docs/cost.md).
   * @default the `projectMetrics` context value (`-c projectMetrics=false`), else true
   */
  readonly projectMetrics?: boolean;
  /**
   * PROVIDER_RATES of the campaign engine: campaign mails a minute per mailbox provider (`google`,
   * `microsoft`, `microsoft-365`, `yahoo`, `apple`, `other`), every campaign of the deployment
   * together; `null` lifts a provider's limit. Providers not named keep their defaults (docs/campaigns.md).
   * @default the `providerRates` context value as JSON (`-c 'providerRates={"yahoo":1000}'`), else the defaults
   */
  readonly providerRates?: Readonly<Record<string, number | null>>;
}

/** The email API: storage, queues, SES sending, the HTTP API, the workers and the scheduled jobs. */
export class EmailApiStack extends Stack {
  public readonly storage: Storage;
  public readonly queues: Queues;
  public readonly tokenSecret: TokenSecret;
  public readonly ses: SesSending;
  public readonly api: Api;
  /** The queue workers' functions (their queues, dead-letter queues and alarms are in `queues`). */
  public readonly workers: { readonly functions: Readonly<Record<WorkerName, ProjectFunction>> };
  public readonly scheduling: Scheduling;
  public readonly sesEvents: SesEvents;
  /** Inbound replies: receipt rule set, bucket and function (the rule set must be activated by hand); undefined when receiving is off. */
  public readonly inbound?: Inbound;
  /** HTTPS for customers' tracking domains; undefined without a tracking host. */
  public readonly trackingEdge?: TrackingEdge;
  /** Alarms, the optional alert topic and the dashboard. */
  public readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: EmailApiStackProps = {}) {
    super(scope, id, props);
    const serviceName = props.serviceName ?? 'Mailroom';
    const receivingDomain = dnsNameOf('inboundDomain', 'reply.mail.example.com', props.inboundDomain ?? this.node.tryGetContext('inboundDomain'));
    const inboundDomain = receivingDomain ?? DEFAULT_INBOUND_DOMAIN;
    const removalPolicy = (props.retainData ?? true) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.storage = new Storage(this, 'Storage', { removalPolicy });
    this.queues = new Queues(this, 'Queues');
    this.tokenSecret = new TokenSecret(this, 'TokenSecret', { removalPolicy });
    // The table's generated name marks this deployment's SES identities: a redeploy gets a new one.
    this.ses = new SesSending(this, 'Ses', { deployment: this.storage.table.tableName });
    this.sesEvents = new SesEvents(this, 'SesEvents', { configurationSet: this.ses.configurationSet, queue: this.queues.queues['ses-events'] });

    // RECEIVING follows the same prop as the Inbound construct, so the functions never promise a mailbox that does not exist.
    const settings: Partial<Record<Setting, string>> = { SERVICE_NAME: serviceName, RECEIVING: receivingDomain ? 'on' : 'off', INBOUND_DOMAIN: inboundDomain };
    if (props.logLevel) settings.LOG_LEVEL = props.logLevel;
    if (props.activityRetentionDays !== undefined) {
      settings.ACTIVITY_RETENTION_DAYS = String(props.activityRetentionDays);
    }
    const defaultMonthlyQuota = monthlyQuotaOf(props.defaultMonthlyQuota ?? this.node.tryGetContext('defaultMonthlyQuota'));
    if (defaultMonthlyQuota !== undefined) settings.DEFAULT_MONTHLY_QUOTA = String(defaultMonthlyQuota);
    const trackingHost = dnsNameOf('trackingHost', 'track.mail.example.com', props.trackingHost ?? this.node.tryGetContext('trackingHost'));
    if (trackingHost) settings.TRACKING_HOST = trackingHost;
    const dmarcReportsDomain = dnsNameOf('dmarcReportsDomain', 'dmarc.example.com', props.dmarcReportsDomain ?? this.node.tryGetContext('dmarcReportsDomain'));
    if (dmarcReportsDomain) settings.DMARC_REPORTS_DOMAIN = dmarcReportsDomain;
    if (!projectMetricsOf(props.projectMetrics ?? this.node.tryGetContext('projectMetrics'))) settings.PROJECT_METRICS = 'off';
    const providerRates = providerRatesOf(props.providerRates ?? this.node.tryGetContext('providerRates'));
    if (providerRates) settings.PROVIDER_RATES = providerRates;
    const resources: ServiceResources = {
      table: this.storage.table,
      payloadBucket: this.storage.payloadBucket,
      queues: this.queues.queues,
      tokenSecret: this.tokenSecret.secret,
      ses: this.ses,
      campaignTimerRole: new CampaignTimers(this, 'CampaignTimers', { campaignsQueue: this.queues.queues.campaigns }).role,
      settings,
    };

    this.api = new Api(this, 'Api', { resources, apiName: serviceName, logRemovalPolicy: removalPolicy });
    // Open and click links point at the API. The workers are not behind the API, so naming its URL in
    // their environment makes no dependency cycle (each gets it only if it reads TRACKING_BASE_URL).
    const workerResources: ServiceResources = { ...resources, settings: { ...settings, TRACKING_BASE_URL: this.api.url } };
    this.workers = { functions: attachWorkers({ queues: this.queues, resources: workerResources, logRemovalPolicy: removalPolicy }) };
    this.scheduling = new Scheduling(this, 'Scheduling', { resources, logRemovalPolicy: removalPolicy });
    if (receivingDomain) {
      this.inbound = new Inbound(this, 'Inbound', { resources, inboundDomain: receivingDomain, dmarcReportsDomain, removalPolicy, logRemovalPolicy: removalPolicy });
    } else {
      Annotations.of(this).addWarning(RECEIVING_OFF_WARNING);
      if (!dmarcReportsDomain) Annotations.of(this).addWarning(DMARC_WITHOUT_RECEIVING_WARNING);
    }
    if (trackingHost) {
      this.trackingEdge = new TrackingEdge(this, 'TrackingEdge', { httpApi: this.api.httpApi, trackingHost });
      // The minute re-check creates each verified tracking domain's tenant (shared/mail-pipeline/tracking/tracking-tls.ts).
      this.trackingEdge.grantServeTenants(this.scheduling.functions['domain-recheck'].function);
      new CfnOutput(this, 'TrackingRoutingEndpoint', {
        value: this.trackingEdge.routingEndpoint,
        description: `Publish ${trackingHost} as a CNAME of this name; customers' tracking domains CNAME to ${trackingHost}`,
      });
    }

    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      queues: this.queues.queues,
      deadLetterAlarms: { ...this.queues.deadLetterAlarms, ...(this.inbound ? { inbound: this.inbound.failureAlarm } : {}) },
      backgroundFunctions: { ...this.workers.functions, ...this.scheduling.functions, ...(this.inbound ? { inbound: this.inbound.function } : {}) },
      configurationSetName: this.ses.configurationSetName,
      alarmTopicArn: alarmTopicArnOf(props.alarmTopicArn ?? this.node.tryGetContext('alarmTopicArn')),
      alarmEmail: alarmEmailOf(props.alarmEmail ?? this.node.tryGetContext('alarmEmail')),
    });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName, description: 'CloudWatch dashboard of the deployment' });
    if (this.monitoring.alarmTopic) new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.alarmTopic.topicArn, description: 'SNS topic the alarms notify' });

    // The endpoint, not the stage URL: the $default stage's URL ends in `/`, and `$API/v1/...` would then have `//`.
    new CfnOutput(this, 'ApiUrl', { value: this.api.httpApi.apiEndpoint, description: 'Base URL of the email API (no trailing slash)' });
    new CfnOutput(this, 'Receiving', {
      value: receivingDomain ? `on: ${receivingDomain}` : 'off',
      description: receivingDomain ? 'Replies to sent mail reach the inbound function once the rule set is active' : 'No inboundDomain: replies and inbound features are off',
    });
    const reportsDomain = dmarcReportsDomain ?? receivingDomain;
    if (reportsDomain) {
      // RFC 7489 section 7.1: a receiver mails reports to an address outside the reported domain only
      // when the address's domain says it accepts them; the wildcard accepts them for every domain.
      new CfnOutput(this, 'DmarcReportsRecord', {
        value: `${dmarcReportsAuthorization(reportsDomain)} TXT "v=DMARC1"`,
        description: 'Publish this TXT record, or receivers send no DMARC report to the rua address of the registered domains (docs/dmarc.md)',
      });
    }
    new CfnOutput(this, 'TableName', { value: this.storage.table.tableName });
    new CfnOutput(this, 'PayloadBucketName', { value: this.storage.payloadBucket.bucketName });
    new CfnOutput(this, 'ConfigurationSetName', { value: this.ses.configurationSetName });
  }
}

/** The name of the record by which the reports domain accepts DMARC reports for every domain (RFC 7489 section 7.1). */
export function dmarcReportsAuthorization(reportsDomain: string): string {
  return `*._report._dmarc.${reportsDomain}`;
}

/** A host or domain from a prop or the context: a lowercase DNS name (no scheme, no port), or undefined; anything else fails the synth. */
function dnsNameOf(setting: string, example: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const host = typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : '';
  if (!/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/.test(host)) {
    throw new Error(`${setting} must be a DNS name such as ${example}; got ${JSON.stringify(value)}`);
  }
  return host;
}

/** The default monthly quota from a prop (a number) or the context (`-c` gives a string); a bad value fails the synth. */
function monthlyQuotaOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const quota = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof quota !== 'number' || !Number.isSafeInteger(quota) || quota < 0) {
    throw new Error(`defaultMonthlyQuota must be a whole number of emails, 0 or more; got ${JSON.stringify(value)}`);
  }
  return quota;
}

/** The alert topic's ARN from a prop or the context: an SNS topic ARN, or undefined; anything else fails the synth. */
function alarmTopicArnOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[\w-]{1,256}$/.test(value.trim())) {
    throw new Error(`alarmTopicArn must be an SNS topic ARN such as arn:aws:sns:eu-west-1:123456789012:alerts; got ${JSON.stringify(value)}`);
  }
  return value.trim();
}

/** The alert address from a prop or the context: one email address, or undefined; anything else fails the synth. */
function alarmEmailOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim())) {
    throw new Error(`alarmEmail must be one email address; got ${JSON.stringify(value)}`);
  }
  return value.trim();
}

/** Per-project metrics from a prop or the context (`true`/`false`); on unless turned off; anything else fails the synth. */
function projectMetricsOf(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`projectMetrics must be true or false; got ${JSON.stringify(value)}`);
}

/** The provider rates from a prop (an object) or the context (JSON text), as PROVIDER_RATES's JSON; a bad value fails the synth. */
function providerRatesOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    parseProviderRates(text);
  } catch (error) {
    throw new Error(`providerRates: ${(error as Error).message.replace(/^PROVIDER_RATES:? ?/, '')}; got ${text}`);
  }
  return JSON.stringify(JSON.parse(text));
}
