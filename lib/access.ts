import { CfnElement, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { NagSuppressions, type NagPackSuppression, type NagPackSuppressionAppliesTo } from 'cdk-nag';
import { queueUrlKey, type ConfigKey } from '../shared/platform/core/config';
import { mergeAccess, type FunctionAccess, type Setting } from '../shared/platform/core/function-access';
import { routeTable } from '../functions/route-table';

export { settingKeys, type FunctionAccess, type Setting } from '../shared/platform/core/function-access';
import type { QueueName } from '../shared/platform/core/queues';
import { endpointGroups, type BucketFunctionName, type EndpointGroup, type ScheduleName, type WorkerName } from '../shared/platform/core/routes';
import { tableDefinition } from '../shared/platform/store/table-definition';
import type { SesSending } from './ses';


/** The shared resources a function can be connected to, and the values of the settings. */
export interface ServiceResources {
  /** The single table (TABLE_NAME). */
  readonly table: dynamodb.ITable;
  /** The payload bucket (PAYLOAD_BUCKET). */
  readonly payloadBucket: s3.IBucket;
  /** The work queues, keyed by name (each queue's `urlEnv`). */
  readonly queues: Readonly<Record<QueueName, sqs.IQueue>>;
  /** The token-signing key (TOKEN_SECRET_ARN). */
  readonly tokenSecret: secretsmanager.ISecret;
  /** SES sending resources (SES_CONFIGURATION_SET). */
  readonly ses: SesSending;
  /**
   * The role EventBridge Scheduler assumes to put the campaign engine's one-time timers on the
   * campaigns queue (lib/campaign-timers.ts).
   * @default - no function may set timers
   */
  readonly campaignTimerRole?: iam.IRole;
  /**
   * Values of the settings. A function that reads a setting without a value here runs on the code's
   * default (shared/platform/core/config.ts).
   */
  readonly settings: Readonly<Partial<Record<Setting, string>>>;
}



/**
 * Grants per worker and bucket function, typed over every one, so a new one does not compile until
 * someone decides what it may touch. An endpoint group's grants are its route modules' (groupAccess).
 */
export const functionAccess: { readonly [name in WorkerName | BucketFunctionName]: FunctionAccess } = {
  /** Writes a chunk's activity records (BatchWrite), queues its mails, publishes email.suppressed. */
  'batch-fanout': { table: 'readWrite', enqueue: ['batch-send', 'events'], payloads: 'read', settings: ['ACTIVITY_RETENTION_DAYS'] },
  /** Renders and sends each recipient of a batch job as the send worker does (claims, SES, retries on the send queue). */
  'batch-send-worker': {
    table: 'readWrite',
    enqueue: ['send', 'events'],
    payloads: 'read',
    sesSend: true,
    settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'ACTIVITY_RETENTION_DAYS', 'DEFAULT_MONTHLY_QUOTA', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN', 'PROJECT_METRICS'],
  },
  /** Claims and updates activities, re-enqueues retries with a delay, reads payloads, calls SES. */
  'send-worker': {
    table: 'readWrite',
    enqueue: ['send', 'events'],
    payloads: 'read',
    sesSend: true,
    settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'ACTIVITY_RETENTION_DAYS', 'DEFAULT_MONTHLY_QUOTA', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN', 'PROJECT_METRICS'],
  },
  /** Reads projects' webhook URLs and queues one delivery per (event, URL). */
  'webhook-fanout': { table: 'read', enqueue: ['webhooks'] },
  /** POSTs deliveries, delays retries (visibility of its own queue), logs every attempt (and keeps small payloads for redelivery), records final failures. */
  'webhook-delivery': { table: 'readWrite', enqueue: ['webhooks'] },
  /**
   * Streams an import's file from the bucket in chunks, upserts the leads, checkpoints, and queues its
   * own continuation; automations' dispatcher queues the entries its new leads, tags and memberships start.
   */
  'lead-import-worker': { table: 'readWrite', enqueue: ['imports', 'automations'], payloads: 'read' },
  /**
   * Evaluates dynamic segments step by step (each step queues the next) and cleans up after deletes
   * and runs; automations' dispatcher queues the entries and exits of the leads an evaluation finds new or gone.
   */
  'audience-worker': { table: 'readWrite', enqueue: ['audience', 'automations'] },
  /** The campaign engine: counts the frozen audience, paces, releases waves to the batch fan-out, finishes campaigns. */
  'campaign-engine': {
    table: 'readWrite',
    // batch-send: resume queues the jobs held while the campaign was paused.
    enqueue: ['campaigns', 'fanout', 'events', 'batch-send'],
    // Reads a campaign's `recipientIds` (ids.json) back, and writes its wave chunks.
    payloads: 'readWrite',
    campaignTimers: true,
    settings: ['ACTIVITY_RETENTION_DAYS', 'SERVICE_NAME', 'TRACKING_BASE_URL', 'CAMPAIGN_SEND_RATE', 'TRANSACTIONAL_RATE_SHARE', 'PROVIDER_RATES'],
  },
  /** Writes a campaign export's CSV to the bucket in parts (multipart upload), checkpoints, and queues its own continuation. */
  'campaign-export-worker': { table: 'readWrite', enqueue: ['exports'], payloads: 'put' },
  /** Applies SES events to activity, suppression and counters, and publishes email events. */
  'ses-events': { table: 'readWrite', enqueue: ['events'], settings: ['ACTIVITY_RETENTION_DAYS', 'PROJECT_METRICS'] },
  /**
   * Reads the activity of a reply, publishes email.inbound, sends the "Undeliverable" mail (its bucket
   * read is in lib/inbound.ts); stores the DMARC reports mailed to DMARC_REPORTS_DOMAIN.
   */
  inbound: { table: 'readWrite', enqueue: ['events'], sesSend: true, settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'INBOUND_BUCKET', 'DMARC_REPORTS_DOMAIN'] },
  /**
   * Claims a due scheduled send and queues its mail as the send group would (activity, send job,
   * a large payload to the bucket); re-queues a fire message that arrived early; publishes
   * email.failed for a send that cannot go out at its time (a template that no longer renders).
   */
  'scheduled-send-worker': {
    table: 'readWrite',
    enqueue: ['send', 'scheduled', 'fanout', 'events'],
    payloads: 'put',
    settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'ACTIVITY_RETENTION_DAYS', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'],
  },
  /**
   * The automation engine: runs, their timelines, entry markers and counters; a step's mail accepted
   * as the send group would (activity, send job, a large payload to the bucket); a webhook step's one
   * delivery; its own continuations, delays and date-walk entries.
   */
  'automation-engine': {
    table: 'readWrite',
    enqueue: ['automations', 'send', 'webhooks'],
    payloads: 'put',
    settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'ACTIVITY_RETENTION_DAYS', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'],
  },
};

/**
 * The access of an endpoint group's function: the union of what its route modules declare (each
 * route names what its handler touches, functions/<group>/routes/).
 */
export function groupAccess(group: EndpointGroup): FunctionAccess {
  return mergeAccess(routeTable.filter((route) => route.group === group).map((route) => route.access));
}

/** The access of every function fed by the API, a queue or a bucket, by name (the scheduled jobs' is scheduledAccess). */
export function accessByFunction(): { readonly [name in EndpointGroup | WorkerName | BucketFunctionName]: FunctionAccess } {
  const groups = Object.fromEntries((Object.keys(endpointGroups) as EndpointGroup[]).map((group) => [group, groupAccess(group)]));
  return { ...functionAccess, ...groups } as { [name in EndpointGroup | WorkerName | BucketFunctionName]: FunctionAccess };
}

/** Grants of the scheduled jobs of shared/platform/core/routes.ts, typed over every job: a new one does not compile until listed. */
export const scheduledAccess: { readonly [name in ScheduleName]: FunctionAccess } = {
  /**
   * Asks SES about pending identities and publishes the transitions' events; mails a project's own
   * sender-confirmation link (from the address to itself) once SES has the address verified.
   */
  'domain-recheck': { table: 'readWrite', enqueue: ['events'], sesIdentities: 'read', sesSend: true, settings: ['SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_BASE_URL', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'] },
  /** Resolves DNS and writes record statuses. */
  'dns-sweep': { table: 'readWrite', settings: ['RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_HOST', 'DMARC_REPORTS_DOMAIN'] },
  /** Queries the due index (keys only) and queues one delayed fire message per send: writes nothing. */
  'scheduled-sweep': { table: 'read', enqueue: ['scheduled'] },
  /** Reads the deployment's date triggers, queues each one's next-day walk on `automations`, and marks the day walked on its trigger entry. */
  'automation-dates': { table: 'readWrite', enqueue: ['automations'] },
  /** Queries the automation due index (keys only) past its cursor, queues one delayed wake per run, and saves the cursor (one item). */
  'automation-sweep': { table: 'readWrite', enqueue: ['automations'] },
};

/** Sets one variable of shared/platform/core/config.ts: a name the configuration does not know does not compile. */
function setVariable(fn: lambda.Function, key: ConfigKey, value: string): void {
  fn.addEnvironment(key, value);
}

/**
 * Gives a function the variables and grants `access` lists, each grant beside its variable; a function
 * gets no variable it does not read (shared/platform/core/config.ts validates each one only when it is read).
 */
export function connect(fn: lambda.Function, resources: ServiceResources, access: FunctionAccess): void {
  // Each grant below that CDK words with a wildcard is recorded here with its reason, for cdk-nag.
  const wildcards: NagPackSuppression[] = [];
  const allow = (appliesTo: NagPackSuppressionAppliesTo[], reason: string) =>
    wildcards.push({ id: 'AwsSolutions-IAM5', reason, appliesTo });

  setVariable(fn, 'TABLE_NAME', resources.table.tableName);
  if (access.table === 'readWrite') resources.table.grantReadWriteData(fn);
  else resources.table.grantReadData(fn);
  if (tableDefinition.globalSecondaryIndexes.length > 0) {
    allow([`Resource::${arnToken(resources.table)}/index/*`], 'Queries go to the indexes of this stack\'s own table.');
  }

  for (const name of access.enqueue ?? []) {
    const queue: sqs.IQueue = resources.queues[name];
    setVariable(fn, queueUrlKey(name), queue.queueUrl);
    queue.grantSendMessages(fn);
  }

  if (access.payloads) setVariable(fn, 'PAYLOAD_BUCKET', resources.payloadBucket.bucketName);
  const payloadObjects = () => `Resource::${arnToken(resources.payloadBucket)}/*`;
  const perActivityKeys = 'Payload keys are generated per activity, so access is to the objects of this stack\'s own bucket';
  if (access.payloads === 'put' || access.payloads === 'readWrite') {
    resources.payloadBucket.grantPut(fn);
    allow([payloadObjects(), 'Action::s3:Abort*'], `${perActivityKeys}; s3:Abort* is CDK's grantPut (multipart aborts).`);
  }
  if (access.payloads === 'read' || access.payloads === 'readWrite') {
    resources.payloadBucket.grantRead(fn);
    allow(
      [payloadObjects(), 'Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*'],
      `${perActivityKeys}; the action wildcards are CDK's grantRead, read-only.`,
    );
  }

  setVariable(fn, 'TOKEN_SECRET_ARN', resources.tokenSecret.secretArn);
  resources.tokenSecret.grantRead(fn);

  if (access.sesSend || access.sesIdentities) setVariable(fn, 'SES_CONFIGURATION_SET', resources.ses.configurationSetName);
  if (access.sesIdentities === 'manage') resources.ses.grantManageIdentities(fn);
  else if (access.sesIdentities === 'read') resources.ses.grantReadIdentities(fn);
  if (access.sesIdentities) {
    setVariable(fn, 'SES_IDENTITY_OWNER', resources.ses.identityOwner);
    allow(
      [{ regex: '/^Resource::arn:.+:ses:.+:identity\\/\\*$/' }],
      'Domains and sender addresses are registered at run time through the API, so their identities are not known at deploy time.',
    );
  }
  if (access.sesTenants) {
    setVariable(fn, 'SES_CONFIGURATION_SET', resources.ses.configurationSetName);
    if (access.sesTenants === 'manage') resources.ses.grantManageTenants(fn);
    else resources.ses.grantReadTenants(fn);
    allow(
      [{ regex: '/^Resource::arn:.+:ses:.+:tenant\\/mr-\\*$/' }, { regex: '/^Resource::arn:.+:ses:.+:identity\\/\\*$/' }],
      'A project is put on its own tenant at run time (named mr-<project id>), with identities registered at run time, so neither is known at deploy time.',
    );
  }
  if (access.sesSend) {
    resources.ses.grantSend(fn);
    allow(
      // Region and account appear as tokens or as values, depending on the stack's env.
      [{ regex: '/^Resource::arn:.+:ses:.+:identity\\/\\*$/' }],
      'Sender identities (domains) are added and verified at run time through the API, so they are not known at deploy time; the configuration set is named exactly.',
    );
  }

  if (access.campaignTimers) {
    const role = resources.campaignTimerRole;
    if (!role) throw new Error(`${fn.node.path} sets campaign timers, but the stack has no campaign timer role`);
    setVariable(fn, 'CAMPAIGNS_QUEUE_ARN', resources.queues.campaigns.queueArn);
    setVariable(fn, 'CAMPAIGN_TIMER_ROLE_ARN', role.roleArn);
    const stack = Stack.of(fn);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['scheduler:CreateSchedule'], resources: [stack.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: 'default/*' })] }));
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['iam:PassRole'], resources: [role.roleArn], conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } }));
    // GetAccount has no resource of its own: IAM takes only `*` for it.
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
    allow([{ regex: '/^Resource::arn:.+:scheduler:.+:schedule\\/default\\/\\*$/' }], 'One-time schedules are named per campaign step at run time.');
    allow(['Resource::*'], 'ses:GetAccount takes no resource.');
  }

  for (const key of ['LOG_LEVEL' as const, ...(access.settings ?? [])]) {
    const value = resources.settings[key];
    if (value !== undefined) setVariable(fn, key, value);
  }

  if (fn.role && wildcards.length > 0) NagSuppressions.addResourceSuppressions(fn.role, wildcards, true);
}

/** How cdk-nag writes the ARN of a resource of this stack in a finding: `<LogicalId.Arn>`. */
function arnToken(resource: IConstruct): string {
  const cfn = resource.node.defaultChild;
  if (!CfnElement.isCfnElement(cfn)) throw new Error(`${resource.node.path} is not a resource of this stack`);
  return `<${Stack.of(cfn).getLogicalId(cfn)}.Arn>`;
}
