import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { functionAccess } from '../../lib/access';
import { EmailApiStack } from '../../lib/email-api-stack';
import { INBOUND_EXPIRY_DAYS, INBOUND_RETRY_ATTEMPTS } from '../../lib/inbound';
import { allows, evaluate, logicalId, nagErrors, statementsOfRole } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about the resources, not the code.
let stack: EmailApiStack;
let template: Template;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new EmailApiStack(app, 'MailroomInbound', { env: { account: '123456789012', region: 'eu-west-1' }, inboundDomain: 'in.mail.test' });
  Aspects.of(stack).add(new AwsSolutionsChecks());
  template = Template.fromStack(stack);
});

const inbound = () => stack.inbound!;
const bucketId = () => logicalId(inbound().bucket);
const functionId = () => logicalId(inbound().function.function);
const resolve = (value: unknown) => Stack.of(stack).resolve(value);

describe('the inbound bucket', () => {
  it('blocks public access, uses S3-managed encryption and expires mail after 30 days', () => {
    expect(INBOUND_EXPIRY_DAYS).toBe(30);
    const bucket = template.toJSON().Resources[bucketId()];
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: { Rules: [expect.objectContaining({ ExpirationInDays: 30, Status: 'Enabled' })] },
    });
    expect(bucket.DeletionPolicy).toBe('Retain');
  });

  it('refuses requests without TLS and lets only SES of this account put objects, under inbound/', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId() },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          {
            Effect: 'Allow',
            Action: 's3:PutObject',
            Principal: { Service: 'ses.amazonaws.com' },
            Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId(), 'Arn'] }, '/inbound/*']] },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          },
        ]),
      },
    });
  });

  it('notifies the inbound function of every object created under inbound/, with no custom resource', () => {
    const bucket = template.toJSON().Resources[bucketId()];
    expect(bucket.Properties.NotificationConfiguration).toEqual({
      LambdaConfigurations: [
        {
          Event: 's3:ObjectCreated:*',
          Filter: { S3Key: { Rules: [{ Name: 'prefix', Value: 'inbound/' }] } },
          Function: { 'Fn::GetAtt': [functionId(), 'Arn'] },
        },
      ],
    });
    template.resourceCountIs('Custom::S3BucketNotifications', 0);
    // S3 may invoke the function for this bucket and account only, and the bucket waits for that permission.
    const permissions = template.findResources('AWS::Lambda::Permission', {
      Properties: { Principal: 's3.amazonaws.com', FunctionName: { 'Fn::GetAtt': [functionId(), 'Arn'] } },
    });
    const [[permissionId, permission]] = Object.entries(permissions);
    expect(permission.Properties.SourceAccount).toEqual({ Ref: 'AWS::AccountId' });
    expect(JSON.stringify(permission.Properties.SourceArn)).toContain(JSON.stringify(resolve(inbound().bucketName)).slice(1, -1));
    expect(bucket.DependsOn).toContain(permissionId);
  });
});

describe('a redeploy after a destroy (the retained bucket keeps its name)', () => {
  it("names the bucket with a part of the stack's id, which CloudFormation draws anew at each creation of the stack", () => {
    const name = template.toJSON().Resources[bucketId()].Properties.BucketName;
    // arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid>: the uuid's last group (12 hex digits).
    const uuidTail = { 'Fn::Select': [4, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] };
    expect(name).toEqual({ 'Fn::Join': ['-', [expect.stringMatching(/^[a-z0-9-]{1,32}$/), { Ref: 'AWS::AccountId' }, uuidTail]] });
    // Two creations of the stack (same name, account and region: a redeploy after a destroy) get different buckets.
    const pseudo = (uuid: string) => ({ 'AWS::AccountId': '123456789012', 'AWS::StackId': `arn:aws:cloudformation:eu-west-1:123456789012:stack/MailroomInbound/${uuid}` });
    const first = evaluate(name, pseudo('1f2e3d40-aaaa-41ef-9c3b-0a1b2c3d4e5f'));
    const second = evaluate(name, pseudo('77a01c10-bbbb-41ef-8e21-06f5e4d3c2b1'));
    expect(first).toMatch(/-123456789012-0a1b2c3d4e5f$/);
    expect(first).not.toBe(second);
    // S3's rule: 3 to 63 lowercase letters, digits and hyphens.
    for (const n of [first, second]) expect(n).toMatch(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/);
  });
});

describe('a failed inbound invocation', () => {
  it(`is retried ${INBOUND_RETRY_ATTEMPTS} times by Lambda, then kept in the failure queue (14 days, TLS only), not dropped`, () => {
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId() },
      MaximumRetryAttempts: 2,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalId(inbound().failureQueue), 'Arn'] } } },
    });
    const queue = template.toJSON().Resources[logicalId(inbound().failureQueue)];
    expect(queue.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
    // The function's role may write to it (Lambda sends the failed event with the function's role).
    const statements = statementsOfRole(template, logicalId(inbound().function.function.role!));
    expect(allows(statements, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(inbound().failureQueue), 'Arn'] })).toBe(true);
  });

  it('sets off an alarm as soon as the failure queue holds one, which notifies the alarm topic like every other', () => {
    const alarm = template.toJSON().Resources[logicalId(inbound().failureAlarm)];
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(inbound().failureQueue), 'QueueName'] } }],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
    });
    expect(stack.monitoring.alarms['dlq:inbound']).toBe(inbound().failureAlarm);
  });
});

describe('cdk destroy (SES refuses to delete the active rule set)', () => {
  it('deactivates the rule set first: SetActiveReceiptRuleSet with no name on delete, and nothing on create', () => {
    const resources = template.toJSON().Resources;
    const [id, deactivate] = Object.entries<any>(resources).find(([, r]) => r.Type === 'Custom::DeactivateReceiptRuleSet')!;
    expect(id).toBe(logicalId(inbound().deactivateOnDelete.node.findChild('Resource')));
    expect(deactivate.Properties.Create).toBeUndefined();
    expect(deactivate.Properties.Update).toBeUndefined();
    expect(JSON.parse(deactivate.Properties.Delete)).toMatchObject({ service: 'SES', action: 'setActiveReceiptRuleSet', parameters: {} });
    expect(deactivate.Properties.InstallLatestAwsSdk).toBe(false);
    // CloudFormation deletes a resource before those it depends on: the deactivation runs before
    // the rule and the rule set are deleted.
    expect(deactivate.DependsOn).toEqual(expect.arrayContaining([logicalId(inbound().ruleSet), logicalId(inbound().rule)]));
  });

  it('may call SetActiveReceiptRuleSet (an account-wide action) and nothing else', () => {
    const policies = Object.values<any>(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('ses:SetActiveReceiptRuleSet'),
    );
    expect(policies).toHaveLength(1);
    expect(policies[0].Properties.PolicyDocument.Statement).toEqual([{ Action: 'ses:SetActiveReceiptRuleSet', Effect: 'Allow', Resource: '*' }]);
  });
});

describe('the SES receipt rule set', () => {
  it('has one rule for the inbound domain: store in S3 under inbound/, scan for spam and viruses, require TLS', () => {
    template.resourceCountIs('AWS::SES::ReceiptRuleSet', 1);
    template.resourceCountIs('AWS::SES::ReceiptRule', 1);
    template.hasResource('AWS::SES::ReceiptRule', {
      Properties: {
        RuleSetName: { Ref: logicalId(inbound().ruleSet) },
        Rule: {
          Enabled: true,
          Recipients: ['in.mail.test'],
          ScanEnabled: true,
          TlsPolicy: 'Require',
          Actions: [{ S3Action: { BucketName: { Ref: bucketId() }, ObjectKeyPrefix: 'inbound/' } }],
        },
      },
      // SES test-writes the bucket when the rule is created: the policy must exist first.
      DependsOn: Match.arrayWith([Match.stringLikeRegexp('^InboundBucketPolicy')]),
    });
  });

  it('is named in an output, to be activated by hand (CloudFormation cannot)', () => {
    template.hasOutput('InboundRuleSetName', { Value: { Ref: logicalId(inbound().ruleSet) }, Description: Match.stringLikeRegexp('set-active-receipt-rule-set') });
    template.hasOutput('InboundBucketName', {});
  });
});

describe('the inbound function', () => {
  it('runs Node.js 22 on arm64 with the variables of its access entry, INBOUND_BUCKET and the inbound domain', () => {
    const fn = template.toJSON().Resources[functionId()];
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], TracingConfig: { Mode: 'Active' } });
    const env = fn.Properties.Environment.Variables;
    expect(Object.keys(env).sort()).toEqual(
      ['NODE_OPTIONS', 'TABLE_NAME', 'EVENTS_QUEUE_URL', 'TOKEN_SECRET_ARN', 'SES_CONFIGURATION_SET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'INBOUND_BUCKET'].sort(),
    );
    expect(functionAccess.inbound).toMatchObject({ table: 'readWrite', enqueue: ['events'], sesSend: true });
    expect(env.INBOUND_DOMAIN).toBe('in.mail.test');
    expect(env.RECEIVING).toBe('on');
    // The bucket's name as a value, not a reference to the bucket (which depends on the function).
    expect(env.INBOUND_BUCKET).toEqual(resolve(inbound().bucketName));
    expect(JSON.stringify(env.INBOUND_BUCKET)).not.toContain(bucketId());
    expect(env).not.toHaveProperty('TOKEN_SECRET');
  });

  it('may read inbound mail, the table and the token secret, publish to the events queue only, and send mail through SES', () => {
    const statements = statementsOfRole(template, logicalId(inbound().function.function.role!));
    const inboundObjects = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::', resolve(inbound().bucketName), '/inbound/*']] };
    const s3 = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));
    expect(s3).toHaveLength(1);
    expect(s3[0].Action).toBe('s3:GetObject');
    expect(s3[0].Resource).toEqual(inboundObjects);
    expect(allows(statements, 'dynamodb:PutItem', { 'Fn::GetAtt': [logicalId(stack.storage.table), 'Arn'] })).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.events), 'Arn'] })).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.send), 'Arn'] })).toBe(false);
    expect(allows(statements, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.webhooks), 'Arn'] })).toBe(false);
    expect(allows(statements, 'ses:SendEmail')).toBe(true);
    expect(allows(statements, 'ses:CreateEmailIdentity')).toBe(false);
    expect(allows(statements, 'secretsmanager:GetSecretValue', { Ref: logicalId(stack.tokenSecret.secret) })).toBe(true);
  });
});

describe('cdk-nag AWS Solutions checks', () => {
  it('leave no unsuppressed error', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});

describe('a stack with retainData: false', () => {
  it('deletes the inbound bucket with the stack, emptied first', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const ephemeral = new EmailApiStack(app, 'EphemeralInbound', { retainData: false, inboundDomain: 'in.mail.test' });
    Aspects.of(ephemeral).add(new AwsSolutionsChecks());
    const t = Template.fromStack(ephemeral);
    expect(t.toJSON().Resources[logicalId(ephemeral.inbound!.bucket)].DeletionPolicy).toBe('Delete');
    t.hasResourceProperties('Custom::S3AutoDeleteObjects', { BucketName: { Ref: logicalId(ephemeral.inbound!.bucket) } });
    expect(nagErrors(ephemeral)).toEqual([]);
  });
});
