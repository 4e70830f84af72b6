import { LOCAL_ACCOUNT, LOCAL_REGION } from './policy-map-format';

/** One action on one resource, with the condition keys the service adds for it. */
export interface ActionRequest {
  readonly action: string;
  readonly resource: string;
  readonly context?: Readonly<Record<string, string | readonly string[]>>;
}

type Input = Record<string, any>;
type Mapper = (input: Input) => ActionRequest[];

const arn = (service: string, resource: string) => `arn:aws:${service}:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${resource}`;

/** DynamoDB: the table's ARN, or the index's for a Query or Scan on one. */
const tableArn = (table: string, index?: string) => arn('dynamodb', `table/${table}${index ? `/index/${index}` : ''}`);
const onTable = (action: string): Mapper => (i) => [{ action, resource: tableArn(i.TableName, i.IndexName) }];
const perTable = (action: string): Mapper => (i) => Object.keys(i.RequestItems ?? {}).map((t) => ({ action, resource: tableArn(t) }));

/** SQS: the queue's ARN from its URL (`<endpoint>/<account>/<name>`), in the local account. */
const queueArn = (url: string) => arn('sqs', String(url).split('/').filter(Boolean).pop() ?? '');
const onQueue = (action: string): Mapper => (i) => [{ action, resource: queueArn(i.QueueUrl) }];

/** S3: objects are `arn:aws:s3:::<bucket>/<key>`. */
const onObject = (action: string): Mapper => (i) => [{ action, resource: `arn:aws:s3:::${i.Bucket}/${i.Key}` }];

/** The address of a From field (`"Name" <a@b>` or `a@b`). */
function addressOf(from: string): string {
  const angle = /<([^>]+)>\s*$/.exec(from);
  return (angle ? angle[1] : from).trim();
}
const identityArn = (identity: string) => arn('ses', `identity/${identity}`);
const tenantArn = (name: string) => arn('ses', `tenant/${name}/*`);
const configurationSetArn = (name: string | undefined): ActionRequest[] => (name ? [{ action: '', resource: arn('ses', `configuration-set/${name}`) }] : []);
/**
 * An SES v2 action on an identity. The identity actions have no configuration-set resource in the
 * reference (CreateEmailIdentity's ConfigurationSetName is not authorized separately); SendEmail has.
 */
const onIdentity = (action: string, identity: (i: Input) => string): Mapper => (i) => [{ action, resource: identityArn(identity(i)) }];

/**
 * The IAM actions and resources of each SDK command the functions send, as the Service
 * Authorization Reference lists them: a HeadObject is authorized as s3:GetObject, a transaction
 * as each of its item actions, a Query on an index against the index's ARN, a SendEmail against
 * the sender identity and the configuration set. test/unit/local/iam-requests.test.ts checks each
 * action and ARN against AWS's reference data.
 */
export const commandActions: Readonly<Record<string, Readonly<Record<string, Mapper>>>> = {
  DynamoDBClient: {
    GetItemCommand: onTable('dynamodb:GetItem'),
    PutItemCommand: onTable('dynamodb:PutItem'),
    UpdateItemCommand: onTable('dynamodb:UpdateItem'),
    DeleteItemCommand: onTable('dynamodb:DeleteItem'),
    QueryCommand: onTable('dynamodb:Query'),
    ScanCommand: onTable('dynamodb:Scan'),
    BatchGetItemCommand: perTable('dynamodb:BatchGetItem'),
    BatchWriteItemCommand: perTable('dynamodb:BatchWriteItem'),
    DescribeTableCommand: onTable('dynamodb:DescribeTable'),
    TransactWriteItemsCommand: (i) =>
      (i.TransactItems as Input[]).map((item) => {
        const [kind, op] = Object.entries(item)[0] as [string, Input];
        const action = { Put: 'dynamodb:PutItem', Update: 'dynamodb:UpdateItem', Delete: 'dynamodb:DeleteItem', ConditionCheck: 'dynamodb:ConditionCheckItem' }[kind];
        if (!action) throw new Error(`Local IAM: unknown transaction item ${kind}`);
        return { action, resource: tableArn(op.TableName) };
      }),
    TransactGetItemsCommand: (i) => (i.TransactItems as Input[]).map((item) => ({ action: 'dynamodb:GetItem', resource: tableArn(item.Get.TableName) })),
  },
  SQSClient: {
    SendMessageCommand: onQueue('sqs:SendMessage'),
    SendMessageBatchCommand: onQueue('sqs:SendMessage'),
    ChangeMessageVisibilityCommand: onQueue('sqs:ChangeMessageVisibility'),
    ChangeMessageVisibilityBatchCommand: onQueue('sqs:ChangeMessageVisibility'),
    DeleteMessageCommand: onQueue('sqs:DeleteMessage'),
    DeleteMessageBatchCommand: onQueue('sqs:DeleteMessage'),
    ReceiveMessageCommand: onQueue('sqs:ReceiveMessage'),
    GetQueueAttributesCommand: onQueue('sqs:GetQueueAttributes'),
    GetQueueUrlCommand: (i) => [{ action: 'sqs:GetQueueUrl', resource: arn('sqs', i.QueueName) }],
  },
  S3Client: {
    PutObjectCommand: onObject('s3:PutObject'),
    GetObjectCommand: onObject('s3:GetObject'),
    // HeadObject has no action of its own: S3 authorizes it as GetObject.
    HeadObjectCommand: onObject('s3:GetObject'),
    CreateMultipartUploadCommand: onObject('s3:PutObject'),
    UploadPartCommand: onObject('s3:PutObject'),
    CompleteMultipartUploadCommand: onObject('s3:PutObject'),
    AbortMultipartUploadCommand: onObject('s3:AbortMultipartUpload'),
    DeleteObjectCommand: onObject('s3:DeleteObject'),
    ListObjectsV2Command: (i) => [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${i.Bucket}` }],
  },
  SESv2Client: {
    SendEmailCommand: (i) => {
      const from = addressOf(String(i.FromEmailAddress ?? ''));
      // SES authorizes the sending identity: the address's domain identity here (the stack grants every identity).
      const identity = i.FromEmailAddressIdentityArn ? String(i.FromEmailAddressIdentityArn).split('identity/')[1] : from.split('@')[1];
      const context = { 'ses:FromAddress': from, 'ses:ApiVersion': '2' };
      return [{ action: 'ses:SendEmail', resource: identityArn(identity) }, ...configurationSetArn(i.ConfigurationSetName)].map((r) => ({ ...r, action: 'ses:SendEmail', context }));
    },
    // The tags asked for are the request's aws:RequestTag/<key> and aws:TagKeys.
    CreateEmailIdentityCommand: (i) => {
      const tags = (i.Tags ?? []) as { Key: string; Value: string }[];
      const context = { ...Object.fromEntries(tags.map((t) => [`aws:RequestTag/${t.Key}`, t.Value])), 'aws:TagKeys': tags.map((t) => t.Key) };
      return [{ action: 'ses:CreateEmailIdentity', resource: identityArn(i.EmailIdentity), context }];
    },
    GetEmailIdentityCommand: onIdentity('ses:GetEmailIdentity', (i) => i.EmailIdentity),
    DeleteEmailIdentityCommand: onIdentity('ses:DeleteEmailIdentity', (i) => i.EmailIdentity),
    PutEmailIdentityMailFromAttributesCommand: onIdentity('ses:PutEmailIdentityMailFromAttributes', (i) => i.EmailIdentity),
    // A tenant's ARN ends in its id, which SES makes: the local map names it by its name and `*`.
    CreateTenantCommand: (i) => [{ action: 'ses:CreateTenant', resource: tenantArn(i.TenantName) }],
    GetTenantCommand: (i) => [{ action: 'ses:GetTenant', resource: tenantArn(i.TenantName) }],
    // Authorized against the tenant and the resource associated with it.
    CreateTenantResourceAssociationCommand: (i) => [
      { action: 'ses:CreateTenantResourceAssociation', resource: tenantArn(i.TenantName) },
      { action: 'ses:CreateTenantResourceAssociation', resource: String(i.ResourceArn) },
    ],
    // GetAccount has no resource type: IAM evaluates it against `*`.
    GetAccountCommand: () => [{ action: 'ses:GetAccount', resource: '*' }],
  },
  SchedulerClient: {
    CreateScheduleCommand: (i) => [
      { action: 'scheduler:CreateSchedule', resource: arn('scheduler', `schedule/${i.GroupName ?? 'default'}/${i.Name}`) },
      // Naming a role for the target passes it: iam:PassRole, to the scheduler service.
      { action: 'iam:PassRole', resource: String(i.Target?.RoleArn), context: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
    ],
  },
  SecretsManagerClient: {
    GetSecretValueCommand: (i) => [{ action: 'secretsmanager:GetSecretValue', resource: String(i.SecretId).startsWith('arn:') ? i.SecretId : arn('secretsmanager', `secret:${i.SecretId}`) }],
  },
};

/** The requests of one command; an error for a command no one mapped, so that no call goes unchecked. */
export function requestsOf(clientName: string, commandName: string, input: Input): ActionRequest[] {
  const mapper = commandActions[clientName]?.[commandName];
  if (!mapper) throw new Error(`Local IAM: ${clientName} ${commandName} has no IAM mapping in local/iam/requests.ts; add it before a function calls it`);
  return mapper(input);
}
