import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { queues, type QueueName } from '../shared/platform/core/queues';
import { tableDefinition } from '../shared/platform/store/table-definition';

/** Creates the single table (if absent) from the same definition the CDK stack uses. */
export async function provisionTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const def = tableDefinition;
  const attributes = new Set<string>([def.partitionKey, def.sortKey]);
  def.globalSecondaryIndexes.forEach((g) => (attributes.add(g.partitionKey), attributes.add(g.sortKey)));
  const indexes: GlobalSecondaryIndex[] = def.globalSecondaryIndexes.map((g) => ({
    IndexName: g.name,
    KeySchema: [
      { AttributeName: g.partitionKey, KeyType: 'HASH' },
      { AttributeName: g.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: g.projection, NonKeyAttributes: g.nonKeyAttributes ? [...g.nonKeyAttributes] : undefined },
  }));
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: def.partitionKey, KeyType: 'HASH' },
          { AttributeName: def.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes.length > 0 ? indexes : undefined,
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true } }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await client.send(new DescribeTableCommand({ TableName: tableName }));
}

/** Creates every queue of shared/platform/core/queues.ts with its dead-letter queue; returns the queue URLs. */
export async function provisionQueues(client: SQSClient, prefix: string): Promise<Record<QueueName, string>> {
  const urls = {} as Record<QueueName, string>;
  for (const [name, def] of Object.entries(queues) as [QueueName, (typeof queues)[QueueName]][]) {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${prefix}-${name}-dlq`, Attributes: { MessageRetentionPeriod: '1209600' } }));
    const dlqArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
    const queue = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${name}`,
        Attributes: {
          VisibilityTimeout: String(def.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: def.maxReceiveCount }),
        },
      }),
    );
    urls[name] = queue.QueueUrl as string;
  }
  return urls;
}

/** Creates the payload bucket if absent, with the stack's CORS rule (lib/storage.ts). */
export async function provisionBucket(client: S3Client, bucket: string): Promise<void> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  }
  // The console PUTs a lead import's file to its presigned URL from the browser: a cross-origin request.
  await client.send(
    new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: [{ AllowedMethods: ['PUT'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], MaxAgeSeconds: 3600 }] } }),
  );
}
