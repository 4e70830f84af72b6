import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { tableDefinition } from '../shared/platform/store/table-definition';

/** Days a send payload (body, attachments) stays in the bucket; the pipeline needs it for minutes. */
export const PAYLOAD_EXPIRY_DAYS = 14;

/**
 * Days a campaign's `recipientIds` (`campaigns/<p>/<c>/ids.json`) stays in the bucket: the engine
 * reads it at every wave, and a campaign may start up to 365 days after its creation
 * (MAX_START_AHEAD_DAYS), then run and pause for weeks. 400 days covers both.
 */
export const CAMPAIGN_IDS_EXPIRY_DAYS = 400;

/**
 * How long each kind of object stays in the payload bucket, by key prefix. S3 honours the SHORTER
 * expiration when two rules match one object, so no rule may cover the whole bucket: every prefix
 * the code writes has its own rule (test/infra/storage-lifecycle.test.ts finds the prefixes in
 * shared/ and fails on one missing here).
 */
export const PAYLOAD_LIFECYCLE: Readonly<Record<string, number>> = {
  /** Send payloads too large for an SQS message: read by the send worker within minutes. */
  'send-payloads/': PAYLOAD_EXPIRY_DAYS,
  /** Uploaded lead import files: read by the import within hours. */
  'imports/': PAYLOAD_EXPIRY_DAYS,
  /** Batch content and recipient chunks: a batch is scheduled at most 13 days ahead. */
  'batches/': PAYLOAD_EXPIRY_DAYS,
  /** Campaign outcome exports: downloadable for 7 days. */
  'exports/': PAYLOAD_EXPIRY_DAYS,
  /** Campaign `recipientIds`: needed until the campaign's last wave. */
  'campaigns/': CAMPAIGN_IDS_EXPIRY_DAYS,
};

export interface StorageProps {
  /**
   * What happens to the table and the bucket when the stack deletes them.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * Refuse DeleteTable calls until this is turned off.
   * @default true unless the removal policy is DESTROY
   */
  readonly deletionProtection?: boolean;
}

/** The single DynamoDB table and the payload bucket. */
export class Storage extends Construct {
  /** The single table; its shape comes from shared/platform/store/table-definition.ts. */
  public readonly table: dynamodb.Table;
  /** Send payloads, lead import files, batch content, exports and campaign id lists, each prefix expired by its own lifecycle rule (PAYLOAD_LIFECYCLE). */
  public readonly payloadBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const destroy = removalPolicy === RemovalPolicy.DESTROY;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.deletionProtection ?? !destroy,
      removalPolicy,
    });
    for (const gsi of tableDefinition.globalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.name,
        partitionKey: { name: gsi.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType[gsi.projection],
        nonKeyAttributes: gsi.nonKeyAttributes ? [...gsi.nonKeyAttributes] : undefined,
      });
    }

    this.payloadBucket = new s3.Bucket(this, 'Payloads', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      lifecycleRules: [
        // Aborting an unfinished upload expires nothing, so this one may cover the whole bucket.
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        ...Object.entries(PAYLOAD_LIFECYCLE).map(([prefix, days]) => ({ id: `expire-${prefix.replace(/\/$/, '')}`, prefix, expiration: Duration.days(days) })),
      ],
      // Lead import files are PUT by the client to a presigned URL, from a browser too: the signature
      // is the authorization (one key, one hour), so any origin may use it. Nothing else is allowed cross-origin.
      cors: [{ allowedMethods: [s3.HttpMethods.PUT], allowedOrigins: ['*'], allowedHeaders: ['*'], maxAge: 3600 }],
      removalPolicy,
      // A bucket that is not retained must be emptied first, or the stack deletion fails on it.
      autoDeleteObjects: destroy,
    });
    NagSuppressions.addResourceSuppressions(this.payloadBucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'The bucket holds transient payloads (expired after 14 days, campaign id lists after 400) written and read only by this stack\'s roles; ' +
          'server access logs would need a second bucket. Enable CloudTrail S3 data events where object-level audit is required.',
      },
    ]);
  }
}
