import { Aws, CfnOutput, Duration, Fn, Names, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as actions from 'aws-cdk-lib/aws-ses-actions';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { INBOUND_PREFIX } from '../shared/mail-pipeline/inbound/s3-event';
import { bucketFunctions } from '../shared/platform/core/routes';
import { connect, functionAccess, type ServiceResources } from './access';
import { ProjectFunction } from './project-function';

/** Days an inbound mail stays in the bucket; the function reads it within seconds. */
export const INBOUND_EXPIRY_DAYS = 30;

/** Retries Lambda makes of a failed S3 notification before it goes to the failure queue (Lambda's maximum). */
export const INBOUND_RETRY_ATTEMPTS = 2;

/** Days a failed inbound notification waits in the failure queue (the SQS maximum). */
export const INBOUND_FAILURE_RETENTION_DAYS = 14;

export interface InboundProps {
  /** The shared resources (table, queues, token secret, SES) the inbound function is connected to. */
  readonly resources: ServiceResources;
  /**
   * Domain of the Reply-To addresses (INBOUND_DOMAIN): the receipt rule accepts mail for every
   * address of it. It must be verified in SES and have an MX record to SES's inbound endpoint.
   */
  readonly inboundDomain: string;
  /**
   * Domain of the DMARC reports address (`rua=mailto:d-<identity_id>@<this>`), when it is not the
   * inbound domain: the receipt rule accepts its mail too, and the inbound function hands it to the
   * DMARC report intake. It must be verified in SES and have an MX record to SES's inbound endpoint.
   * @default the inbound domain
   */
  readonly dmarcReportsDomain?: string;
  /**
   * What happens to the bucket when the stack deletes it (DESTROY empties it first).
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * What happens to the function's log group when the stack deletes it.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/**
 * Inbound replies: SES receipt rule -> S3 bucket (`inbound/`) -> ObjectCreated notification -> the
 * inbound function -> `email.inbound` on the events queue (or an "Undeliverable" mail to the sender
 * of a reply over 150 KB).
 *
 * SES allows ONE active receipt rule set per account and region, and CloudFormation cannot make a
 * rule set active. After the first deploy, activate it once:
 *
 *     aws ses set-active-receipt-rule-set --rule-set-name <InboundRuleSetName output>
 *
 * (Activating it deactivates any other set of the region.) SES refuses to delete the active set, so
 * a custom resource deactivates it when the stack deletes it, before the set's own deletion.
 * Receiving works only in the regions where SES offers it.
 *
 * The bucket notification is written on the bucket itself (no custom resource). Since the bucket
 * then depends on the function, the function must not depend on the bucket: the bucket's name is
 * set in the template and the function's variable and read permission use that name rather than
 * the bucket's attributes. The name ends with a part of the stack's id, new at every creation of
 * the stack, so that a stack deployed again after a destroy does not collide with the bucket the
 * destroy retained.
 *
 * A notification the function fails on is retried twice by Lambda, then kept in a failure queue
 * (with an alarm) rather than dropped.
 */
export class Inbound extends Construct {
  /** Where the receipt rule stores each mail, under `inbound/`. */
  public readonly bucket: s3.Bucket;
  /** Its name (INBOUND_BUCKET). */
  public readonly bucketName: string;
  /** The receipt rule set; it must be made the active one by hand (see above). */
  public readonly ruleSet: ses.ReceiptRuleSet;
  /** The rule: recipient domain = the inbound domain; actions: S3; spam and virus scan; TLS required. */
  public readonly rule: ses.ReceiptRule;
  /** The function that parses each mail and publishes email.inbound. */
  public readonly function: ProjectFunction;
  /** Where a notification the function failed on (after its retries) is kept, with its event. */
  public readonly failureQueue: sqs.Queue;
  /** In alarm while the failure queue holds a message. */
  public readonly failureAlarm: cloudwatch.Alarm;
  /** Deactivates the rule set when the stack deletes it (SES cannot delete the active set). */
  public readonly deactivateOnDelete: cr.AwsCustomResource;

  constructor(scope: Construct, id: string, props: InboundProps) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;

    // Lowercase, at most 32 + 1 + 12 + 1 + 12 characters: within S3's 63. The last part is the last
    // group of the stack id's UUID (arn:...:stack/<name>/<uuid>), which CloudFormation draws anew each
    // time it creates the stack: a redeploy after a destroy gets a new name, beside the retained bucket.
    const unique = Names.uniqueResourceName(this, { maxLength: 32 }).toLowerCase();
    const stackUuid = Fn.select(2, Fn.split('/', Aws.STACK_ID));
    this.bucketName = Fn.join('-', [unique, Aws.ACCOUNT_ID, Fn.select(4, Fn.split('-', stackUuid))]);
    const bucketArn = `arn:${Aws.PARTITION}:s3:::${this.bucketName}`;

    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: this.bucketName,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      lifecycleRules: [{ expiration: Duration.days(INBOUND_EXPIRY_DAYS), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      removalPolicy,
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'The bucket holds inbound mail for 30 days, written only by SES (bucket policy with aws:SourceAccount) and read only by ' +
          "this stack's inbound function; server access logs would need a second bucket. Enable CloudTrail S3 data events where object-level audit is required.",
      },
    ]);

    this.function = new ProjectFunction(this, 'Function', {
      entry: bucketFunctions.inbound.entry,
      description: bucketFunctions.inbound.description,
      // A mail can be up to 40 MB; one over 150 KB is only read for its headers, but it is read.
      memorySize: 512,
      timeout: Duration.seconds(30),
      logRemovalPolicy: props.logRemovalPolicy,
    });
    const fn = this.function.function;
    // S3 invokes the function asynchronously: after Lambda's retries, the event goes to this queue
    // (replay it by hand, or read it to see which mail failed) instead of being dropped.
    this.failureQueue = new sqs.Queue(this, 'FailureQueue', {
      retentionPeriod: Duration.days(INBOUND_FAILURE_RETENTION_DAYS),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    NagSuppressions.addResourceSuppressions(this.failureQueue, [
      { id: 'AwsSolutions-SQS3', reason: "It is the inbound function's on-failure destination, the dead-letter queue of the asynchronous invocations." },
    ]);
    fn.configureAsyncInvoke({ onFailure: new destinations.SqsDestination(this.failureQueue), retryAttempts: INBOUND_RETRY_ATTEMPTS });
    this.failureAlarm = new cloudwatch.Alarm(this, 'FailureAlarm', {
      alarmDescription: `Inbound mails the function failed on after ${INBOUND_RETRY_ATTEMPTS} retries wait in ${this.node.path}/FailureQueue`,
      metric: this.failureQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    connect(fn, { ...props.resources, settings: { ...props.resources.settings, INBOUND_BUCKET: this.bucketName } }, functionAccess.inbound);
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [`${bucketArn}/${INBOUND_PREFIX}*`] }));
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'Inbound objects are named by SES (one key per received mail); the function reads only the inbound/ prefix of this stack\'s own inbound bucket.',
          appliesTo: [{ regex: `/^Resource::arn:<AWS::Partition>:s3:::.+\\/${INBOUND_PREFIX.replace('/', '')}\\/\\*$/` }],
        },
      ],
      true,
    );

    // ObjectCreated under inbound/ -> the function. S3 checks the permission when the notification is
    // written, so the bucket waits for it.
    fn.addPermission('InvokeFromInboundBucket', {
      principal: new iam.ServicePrincipal('s3.amazonaws.com'),
      action: 'lambda:InvokeFunction',
      sourceArn: bucketArn,
      sourceAccount: Aws.ACCOUNT_ID,
    });
    const cfnBucket = this.bucket.node.defaultChild as s3.CfnBucket;
    cfnBucket.notificationConfiguration = {
      lambdaConfigurations: [
        {
          event: 's3:ObjectCreated:*',
          function: fn.functionArn,
          filter: { s3Key: { rules: [{ name: 'prefix', value: INBOUND_PREFIX }] } },
        },
      ],
    };
    cfnBucket.node.addDependency(fn.permissionsNode.findChild('InvokeFromInboundBucket') as lambda.CfnPermission);

    // Receipt rule: every address of the inbound domain -> S3. SES itself cannot refuse by size (the
    // function bounces replies over 150 KB). The S3 action adds the bucket policy statement that lets
    // ses.amazonaws.com put objects under inbound/ for this account (aws:SourceAccount), and makes
    // the rule wait for it: SES test-writes the bucket when the rule is created (that object,
    // inbound/AMAZON_SES_SETUP_NOTIFICATION, reaches the function, which drops it as "no token").
    this.ruleSet = new ses.ReceiptRuleSet(this, 'RuleSet');
    // DMARC reports (d-<identity_id>@) arrive on the inbound domain, or on a reports domain of their own.
    const reportsDomain = props.dmarcReportsDomain ?? props.inboundDomain;
    this.rule = this.ruleSet.addRule('Replies', {
      recipients: reportsDomain === props.inboundDomain ? [props.inboundDomain] : [props.inboundDomain, reportsDomain],
      actions: [new actions.S3({ bucket: this.bucket, objectKeyPrefix: INBOUND_PREFIX })],
      scanEnabled: true,
      tlsPolicy: ses.TlsPolicy.REQUIRE,
      enabled: true,
    });

    // SES refuses to delete the active rule set, so a destroy would fail on it: deactivate it first.
    // The custom resource depends on the rule set, so CloudFormation deletes it (and so calls
    // SetActiveReceiptRuleSet with no name: no set active) before it deletes the rule and the set.
    this.deactivateOnDelete = new cr.AwsCustomResource(this, 'DeactivateRuleSetOnDelete', {
      resourceType: 'Custom::DeactivateReceiptRuleSet',
      onDelete: { service: 'SES', action: 'setActiveReceiptRuleSet', parameters: {}, physicalResourceId: cr.PhysicalResourceId.of('deactivate-receipt-rule-set') },
      // Not a stack resource ARN: SES gives receipt rule set actions no resource-level permission.
      policy: cr.AwsCustomResourcePolicy.fromStatements([new iam.PolicyStatement({ actions: ['ses:SetActiveReceiptRuleSet'], resources: ['*'] })]),
      // The runtime's SDK has SES v1 (2010) commands; no download from the registry at deploy time.
      installLatestAwsSdk: false,
      logGroup: new logs.LogGroup(this, 'DeactivateRuleSetLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    });
    this.deactivateOnDelete.node.addDependency(this.ruleSet);
    this.deactivateOnDelete.node.addDependency(this.rule);
    suppressCustomResourceFindings(this);

    // Stack-level output names, whatever the construct's id.
    new CfnOutput(this, 'RuleSetName', {
      value: this.ruleSet.receiptRuleSetName,
      description: 'Activate once: aws ses set-active-receipt-rule-set --rule-set-name <this value>',
    }).overrideLogicalId('InboundRuleSetName');
    new CfnOutput(this, 'BucketName', { value: this.bucketName, description: 'Inbound mail, under inbound/' }).overrideLogicalId('InboundBucketName');
    new CfnOutput(this, 'DmarcReportsMx', {
      value: `${reportsDomain} MX 10 inbound-smtp.${Aws.REGION}.amazonaws.com`,
      description: 'Publish this MX so that DMARC reports reach the receipt rule (verify the domain in SES too)',
    }).overrideLogicalId('DmarcReportsMx');
  }
}

/**
 * cdk-nag findings of the AwsCustomResource function (a singleton at the stack's root, shared by
 * every AwsCustomResource of the stack), with why each is accepted.
 */
function suppressCustomResourceFindings(scope: Construct): void {
  const stack = Stack.of(scope);
  const singleton = stack.node.tryFindChild('AWS679f53fac002430cb0da5b7982bd2287');
  if (singleton) {
    NagSuppressions.addResourceSuppressions(
      singleton,
      [
        { id: 'AwsSolutions-IAM4', reason: 'The CDK custom resource function logs through AWSLambdaBasicExecutionRole (CloudWatch Logs only).', appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'] },
        { id: 'AwsSolutions-L1', reason: 'The CDK custom resource function runs on the runtime aws-cdk-lib chooses; it runs only when the stack creates or deletes the rule set.' },
      ],
      true,
    );
  }
  NagSuppressions.addResourceSuppressions(
    scope,
    [{ id: 'AwsSolutions-IAM5', reason: 'SetActiveReceiptRuleSet has no resource-level permission: it applies to the account and region.', appliesTo: ['Resource::*'] }],
    true,
  );
}
