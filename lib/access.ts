import { CfnElement, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { NagSuppressions, type NagPackSuppression, type NagPackSuppressionAppliesTo } from 'cdk-nag';
import { queues as queueDefinitions, type QueueName } from '../shared/queues';
import type { EndpointGroup, ScheduleName, WorkerName } from '../shared/routes';
import { tableDefinition } from '../shared/store/table-definition';
import type { SesSending } from './ses';

/** The shared resources a function can be connected to, and the values of the common environment. */
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
  /** SERVICE_NAME. */
  readonly serviceName: string;
  /** INBOUND_DOMAIN. */
  readonly inboundDomain: string;
  /**
   * Further variables for every function (LOG_LEVEL, ACTIVITY_RETENTION_DAYS...).
   * @default - none
   */
  readonly environment?: Readonly<Record<string, string>>;
}

/** What one function may do beyond reading the token secret, which every function does. */
export interface FunctionAccess {
  /** Table access: `read` for query-only functions. */
  readonly table: 'read' | 'readWrite';
  /**
   * Queues the function enqueues to.
   * @default - none
   */
  readonly enqueue?: readonly QueueName[];
  /**
   * Payload bucket access: the send group stores payloads, the send worker reads them back.
   * @default - none
   */
  readonly payloads?: 'put' | 'read';
  /**
   * May call SES SendEmail through the configuration set.
   * @default false
   */
  readonly sesSend?: boolean;
  /**
   * May create, read and delete SES identities (domain registration, verification, senders).
   * @default false
   */
  readonly sesIdentities?: boolean;
}

/**
 * Grants per endpoint group and worker. Typed over every group and worker of the route table, so a
 * new one does not compile until someone decides what it may touch.
 */
export const functionAccess: { readonly [name in EndpointGroup | WorkerName]: FunctionAccess } = {
  /**
   * Writes the queued activity, stores the payload, enqueues one message per activity; stores
   * scheduled sends and queues the fire message of one due within the sweep's lookahead.
   */
  send: { table: 'readWrite', enqueue: ['send', 'scheduled'], payloads: 'put' },
  /** Only answers queries. */
  activity: { table: 'read' },
  /** Adds and removes suppression entries and publishes suppression.removed. */
  suppressions: { table: 'readWrite', enqueue: ['events'] },
  /** Claims and updates activities, re-enqueues retries with a delay, reads payloads, calls SES. */
  'send-worker': { table: 'readWrite', enqueue: ['send', 'events'], payloads: 'read', sesSend: true },
  /** Reads projects' webhook URLs and queues one delivery per (event, URL). */
  'webhook-fanout': { table: 'read', enqueue: ['webhooks'] },
  /** POSTs deliveries, delays retries (visibility of its own queue), records final failures. */
  'webhook-delivery': { table: 'readWrite', enqueue: ['webhooks'] },
  /** The webhook signing secret (read and rotate) and the list of failed deliveries. */
  webhooks: { table: 'readWrite' },
  /** Template CRUD and the usage markers checked before a delete. */
  templates: { table: 'readWrite' },
  /** Applies SES events to activity, suppression and counters, and publishes email events. */
  'ses-events': { table: 'readWrite', enqueue: ['events'] },
  /** Registers and verifies domains and senders at SES, publishes domain and sender events. */
  domains: { table: 'readWrite', enqueue: ['events'], sesIdentities: true },
  /** The public verification page runs the same verification as the domains group. */
  pages: { table: 'readWrite', enqueue: ['events'], sesIdentities: true },
  /** Records opens and clicks on activities and counters, publishes email.open and email.click. */
  tracking: { table: 'readWrite', enqueue: ['events'] },
  /** Unsubscribe (suppresses the address, publishes suppression.added) and view-in-browser pages. */
  links: { table: 'readWrite', enqueue: ['events'] },
  /** Provisions projects and onboards their domains and senders (the domain module's SES calls). */
  partner: { table: 'readWrite', enqueue: ['events'], sesIdentities: true },
  /** Reads, moves and cancels scheduled sends; a send moved to within the lookahead gets its fire message at once. */
  'scheduled-sends': { table: 'readWrite', enqueue: ['scheduled'] },
  /**
   * Claims a due scheduled send and queues its mail as the send group would (activity, send job,
   * a large payload to the bucket); re-queues a fire message that arrived early.
   */
  'scheduled-send-worker': { table: 'readWrite', enqueue: ['send', 'scheduled'], payloads: 'put' },
};

/** Grants of the scheduled jobs of shared/routes.ts; a job not listed gets DEFAULT_SCHEDULED_ACCESS. */
export const scheduledAccess: { readonly [name in ScheduleName]: FunctionAccess } = {
  /**
   * Asks SES about pending identities and publishes the transitions' events; mails a project's own
   * sender-confirmation link (from the address to itself) once SES has the address verified.
   */
  'domain-recheck': { table: 'readWrite', enqueue: ['events'], sesIdentities: true, sesSend: true },
  /** Resolves DNS and writes record statuses. */
  'dns-sweep': { table: 'readWrite' },
  /** Queries the due index (keys only) and queues one delayed fire message per send: writes nothing. */
  'scheduled-sweep': { table: 'read', enqueue: ['scheduled'] },
};

/** Access of a scheduled job unless its construct is told otherwise. */
export const DEFAULT_SCHEDULED_ACCESS: FunctionAccess = { table: 'readWrite' };

/** The access entry of a group or worker; fails the synth with the missing name. */
export function accessFor(name: string): FunctionAccess {
  const access = (functionAccess as Readonly<Record<string, FunctionAccess | undefined>>)[name];
  if (!access) throw new Error(`No entry for "${name}" in functionAccess (lib/access.ts): decide what it may touch`);
  return access;
}

/**
 * Gives a function the common environment and the grants `access` lists, each grant beside its variable.
 * Every function gets every variable because shared/config.ts requires them all at cold start; only the
 * grants differ.
 */
export function connect(fn: lambda.Function, resources: ServiceResources, access: FunctionAccess): void {
  // Each grant below that CDK words with a wildcard is recorded here with its reason, for cdk-nag.
  const wildcards: NagPackSuppression[] = [];
  const allow = (appliesTo: NagPackSuppressionAppliesTo[], reason: string) =>
    wildcards.push({ id: 'AwsSolutions-IAM5', reason, appliesTo });

  fn.addEnvironment('TABLE_NAME', resources.table.tableName);
  if (access.table === 'readWrite') resources.table.grantReadWriteData(fn);
  else resources.table.grantReadData(fn);
  if (tableDefinition.globalSecondaryIndexes.length > 0) {
    allow([`Resource::${arnToken(resources.table)}/index/*`], 'Queries go to the indexes of this stack\'s own table.');
  }

  for (const [name, queue] of Object.entries(resources.queues) as [QueueName, sqs.IQueue][]) {
    fn.addEnvironment(queueDefinitions[name].urlEnv, queue.queueUrl);
    if (access.enqueue?.includes(name)) queue.grantSendMessages(fn);
  }

  fn.addEnvironment('PAYLOAD_BUCKET', resources.payloadBucket.bucketName);
  const payloadObjects = () => `Resource::${arnToken(resources.payloadBucket)}/*`;
  const perActivityKeys = 'Payload keys are generated per activity, so access is to the objects of this stack\'s own bucket';
  if (access.payloads === 'put') {
    resources.payloadBucket.grantPut(fn);
    allow([payloadObjects(), 'Action::s3:Abort*'], `${perActivityKeys}; s3:Abort* is CDK's grantPut (multipart aborts).`);
  } else if (access.payloads === 'read') {
    resources.payloadBucket.grantRead(fn);
    allow(
      [payloadObjects(), 'Action::s3:GetObject*', 'Action::s3:GetBucket*', 'Action::s3:List*'],
      `${perActivityKeys}; the action wildcards are CDK's grantRead, read-only.`,
    );
  }

  fn.addEnvironment('TOKEN_SECRET_ARN', resources.tokenSecret.secretArn);
  resources.tokenSecret.grantRead(fn);

  fn.addEnvironment('SES_CONFIGURATION_SET', resources.ses.configurationSetName);
  if (access.sesIdentities) {
    resources.ses.grantManageIdentities(fn);
    allow(
      [{ regex: '/^Resource::arn:.+:ses:.+:identity\\/\\*$/' }],
      'Domains and sender addresses are registered at run time through the API, so their identities are not known at deploy time.',
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

  fn.addEnvironment('SERVICE_NAME', resources.serviceName);
  fn.addEnvironment('INBOUND_DOMAIN', resources.inboundDomain);
  for (const [key, value] of Object.entries(resources.environment ?? {})) fn.addEnvironment(key, value);

  if (fn.role && wildcards.length > 0) NagSuppressions.addResourceSuppressions(fn.role, wildcards, true);
}

/** How cdk-nag writes the ARN of a resource of this stack in a finding: `<LogicalId.Arn>`. */
function arnToken(resource: IConstruct): string {
  const cfn = resource.node.defaultChild;
  if (!CfnElement.isCfnElement(cfn)) throw new Error(`${resource.node.path} is not a resource of this stack`);
  return `<${Stack.of(cfn).getLogicalId(cfn)}.Arn>`;
}
