import fs from 'node:fs';
import path from 'node:path';
import { App, Aspects } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EmailApiStack } from '../../lib/email-api-stack';
import type { ProjectFunction } from '../../lib/project-function';
import { rateExpression } from '../../lib/scheduling';
import { PAYLOAD_EXPIRY_DAYS } from '../../lib/storage';
import { queues, type QueueName } from '../../shared/platform/core/queues';
import { endpointGroups, routeKey, schedules, workers, type EndpointGroup, type WorkerName } from '../../shared/platform/core/routes';
import { routeTable as routes } from '../../functions/route-table';
import { tableDefinition } from '../../shared/platform/store/table-definition';
import { actionsOf, allows, logicalId, nagErrors, statementsOfRole, type Statement } from './template-helpers';

// Synthesizing bundles every function with esbuild: build the stack once for the whole file.
let stack: EmailApiStack;
let template: Template;
let outdir: string;

beforeAll(() => {
  const app = new App();
  outdir = app.outdir;
  stack = new EmailApiStack(app, 'MailroomTest', { env: { account: '123456789012', region: 'eu-west-1' }, inboundDomain: 'reply.example.com' });
  Aspects.of(stack).add(new AwsSolutionsChecks());
  template = Template.fromStack(stack);
});

const groupNames = Object.keys(endpointGroups) as EndpointGroup[];
const workerNames = Object.keys(workers) as WorkerName[];
const queueNames = Object.keys(queues) as QueueName[];

function allFunctions(): [string, ProjectFunction][] {
  return [
    ...Object.entries(stack.api.functions),
    ...Object.entries(stack.workers.functions),
    ...Object.entries(stack.scheduling.functions),
    ['inbound', stack.inbound!.function],
  ];
}

function functionNamed(name: string): ProjectFunction {
  const found = allFunctions().find(([n]) => n === name);
  if (!found) throw new Error(`No function for ${name}`);
  return found[1];
}

function statementsOf(fn: ProjectFunction): Statement[] {
  return statementsOfRole(template, logicalId(fn.function.role!));
}

function environmentOf(fn: ProjectFunction): Record<string, unknown> {
  const resource = template.toJSON().Resources[logicalId(fn.function)];
  return resource.Properties.Environment.Variables;
}

describe('the single table', () => {
  it('has the pk/sk string keys of table-definition.ts', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: tableDefinition.partitionKey, AttributeType: 'S' },
        { AttributeName: tableDefinition.sortKey, AttributeType: 'S' },
      ]),
    });
  });

  it('is on-demand, expires items by the ttl attribute and keeps point-in-time recovery', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('has one global secondary index per entry of table-definition.ts', () => {
    const table = Object.values(template.findResources('AWS::DynamoDB::Table'))[0];
    const indexes = (table.Properties.GlobalSecondaryIndexes ?? []) as { IndexName: string }[];
    expect(indexes.map((i) => i.IndexName).sort()).toEqual(tableDefinition.globalSecondaryIndexes.map((g) => g.name).sort());
  });

  it('projects the recipient into the activity list index (the email filter reads it there) and only keys into the other activity indexes', () => {
    const table = Object.values(template.findResources('AWS::DynamoDB::Table'))[0];
    const indexes = (table.Properties.GlobalSecondaryIndexes ?? []) as { IndexName: string; Projection: Record<string, unknown> }[];
    const projection = (name: string) => indexes.find((i) => i.IndexName === name)?.Projection;
    expect(projection('gsi3')).toEqual({ ProjectionType: 'INCLUDE', NonKeyAttributes: ['recipient_primary'] });
    expect(projection('gsi5')).toEqual({ ProjectionType: 'KEYS_ONLY' });
    expect(projection('gsi6')).toEqual({ ProjectionType: 'KEYS_ONLY' });
  });

  it('is retained when the stack is deleted', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('the payload bucket', () => {
  it('blocks all public access and uses S3-managed encryption', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
    });
  });

  it(`expires objects after ${PAYLOAD_EXPIRY_DAYS} days`, () => {
    expect(PAYLOAD_EXPIRY_DAYS).toBe(14);
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ ExpirationInDays: 14, Status: 'Enabled' })]) },
    });
  });

  it('refuses requests without TLS', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(stack.storage.payloadBucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('is retained when the stack is deleted', () => {
    template.hasResource('AWS::S3::Bucket', { DeletionPolicy: 'Retain' });
  });
});

describe('the queues', () => {
  it('creates one queue and one dead-letter queue per definition of shared/platform/core/queues.ts, and the inbound failure queue', () => {
    template.resourceCountIs('AWS::SQS::Queue', queueNames.length * 2 + 1);
  });

  it.each(queueNames)('%s: an alarm goes off as soon as its DLQ holds a message', (name) => {
    const alarm = template.toJSON().Resources[logicalId(stack.queues.deadLetterAlarms[name])];
    expect(alarm.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.queues.deadLetterQueues[name]), 'QueueName'] } }],
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it.each(workerNames)('%s: is fed by its own queue, whose DLQ has the alarm', (name) => {
    const worker = stack.queues.workers[workers[name].queue];
    expect(worker.function).toBe(stack.workers.functions[name]);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(worker.queue), 'Arn'] },
      FunctionName: { Ref: logicalId(worker.function.function) },
    });
  });

  it.each(queueNames)('%s: redrives to its DLQ after maxReceiveCount receives, with its visibility timeout', (name) => {
    const queue = template.toJSON().Resources[logicalId(stack.queues.queues[name])];
    expect(queue.Properties).toMatchObject({
      VisibilityTimeout: queues[name].visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.queues.deadLetterQueues[name]), 'Arn'] },
        maxReceiveCount: queues[name].maxReceiveCount,
      },
    });
  });

  it.each(queueNames)('%s: its DLQ keeps messages 14 days', (name) => {
    const dlq = template.toJSON().Resources[logicalId(stack.queues.deadLetterQueues[name])];
    expect(dlq.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
  });

  it('refuses requests without TLS on every queue', () => {
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy'));
    const covered = policies
      .filter((p) =>
        (p.Properties.PolicyDocument.Statement as { Effect: string; Condition?: unknown }[]).some(
          (s) => s.Effect === 'Deny' && JSON.stringify(s.Condition) === JSON.stringify({ Bool: { 'aws:SecureTransport': 'false' } }),
        ),
      )
      .flatMap((p) => p.Properties.Queues as { Ref: string }[])
      .map((q) => q.Ref);
    const all = [...queueNames.flatMap((n) => [logicalId(stack.queues.queues[n]), logicalId(stack.queues.deadLetterQueues[n])]), logicalId(stack.inbound!.failureQueue)];
    expect(new Set(covered)).toEqual(new Set(all));
  });
});

describe('the HTTP API', () => {
  it('has exactly one route per entry of the route table, with the same route keys', () => {
    const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    expect(routeKeys).toHaveLength(routes.length);
    expect(new Set(routeKeys)).toEqual(new Set(routes.map(routeKey)));
  });

  it("integrates every route with its group's function", () => {
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const functionOfIntegration = (target: unknown): string => {
      const ref = JSON.stringify(target).match(/"Ref":"([^"]+)"/)?.[1];
      const uri = integrations[ref!].Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] };
      return uri['Fn::GetAtt'][0];
    };
    const byKey = new Map(
      Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => [r.Properties.RouteKey, functionOfIntegration(r.Properties.Target)]),
    );
    for (const route of routes) {
      expect([routeKey(route), byKey.get(routeKey(route))]).toEqual([routeKey(route), logicalId(stack.api.functions[route.group].function)]);
    }
  });

  it('uses Lambda proxy integrations with payload format 2.0', () => {
    template.allResourcesProperties('AWS::ApiGatewayV2::Integration', { IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  });

  it('writes access logs from an auto-deployed $default stage', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalId(stack.api.accessLogs), 'Arn'] }, Format: Match.anyValue() },
    });
  });

  it('outputs the API URL', () => {
    template.hasOutput('ApiUrl', {});
  });
});

describe('the API reference (group `docs`)', () => {
  it('copies the renderer (gzipped as the package ships it) and the OpenAPI document next to the function code, and bundles the AWS SDK into the code', () => {
    const id = logicalId(stack.api.functions.docs.function);
    // The code asset is staged in the app's output folder as `asset.<hash>`, the hash being its S3 key's.
    const key = template.findResources('AWS::Lambda::Function')[id].Properties.Code.S3Key as string;
    const assetPath = `asset.${key.replace(/\.zip$/, '')}`;
    const files = fs.readdirSync(path.join(outdir, assetPath));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'rapidoc-min.js.gz', 'openapi.json']));
    expect(JSON.parse(fs.readFileSync(path.join(outdir, assetPath, 'openapi.json'), 'utf8'))).toMatchObject({ openapi: '3.1.0' });
    // Its own code under 500 KB, plus the AWS SDK every bundle ships (docs/cost.md, "Functions").
    const code = fs.readFileSync(path.join(outdir, assetPath, 'index.js'), 'utf8');
    expect(code.length).toBeLessThan((500 + 1150) * 1024);
    // The SDK is in the bundle, not required from the runtime (NodejsFunction leaves it out by
    // default). The SDK's own error messages quote `[require("@aws-sdk/signature-v4-crt")]`.
    expect(code).not.toMatch(/(?<!\[)require\(["']@aws-sdk\//);
    expect(code).toContain('DistributionTenant');
  });

  it('serves /openapi.json, /docs and the renderer from the docs function', () => {
    expect(routes.filter((r) => r.group === 'docs').map(routeKey).sort()).toEqual(['GET /docs', 'GET /docs/rapidoc.js', 'GET /openapi.json']);
  });

  it('may read the table but not write it', () => {
    const statements = statementsOf(functionNamed('docs'));
    expect(allows(statements, 'dynamodb:GetItem', { 'Fn::GetAtt': [logicalId(stack.storage.table), 'Arn'] })).toBe(true);
    expect(allows(statements, 'dynamodb:PutItem', { 'Fn::GetAtt': [logicalId(stack.storage.table), 'Arn'] })).toBe(false);
  });
});

describe('the console (group `console`)', () => {
  it('carries the built console (script, stylesheet, manifest) next to its code', () => {
    const id = logicalId(stack.api.functions.console.function);
    const key = template.findResources('AWS::Lambda::Function')[id].Properties.Code.S3Key as string;
    const assetPath = path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
    expect(fs.readdirSync(assetPath)).toEqual(expect.arrayContaining(['index.js', 'app.js', 'app.css', 'manifest.json']));
    const manifest = JSON.parse(fs.readFileSync(path.join(assetPath, 'manifest.json'), 'utf8')) as { js: string; css: string };
    expect(manifest.js).toMatch(/^[0-9a-f]{16}$/);
  });

  it('serves the page, its two files and the session routes', () => {
    expect(routes.filter((r) => r.group === 'console').map(routeKey).sort()).toEqual([
      'DELETE /console/session',
      'GET /console',
      'GET /console/assets/app.css',
      'GET /console/assets/app.js',
      'GET /console/session',
      'POST /console/session',
    ]);
  });

  it('may write the table (sessions) and touches nothing else: no queue, no bucket, no SES', () => {
    const statements = statementsOf(functionNamed('console'));
    const table = { 'Fn::GetAtt': [logicalId(stack.storage.table), 'Arn'] };
    expect(allows(statements, 'dynamodb:PutItem', table)).toBe(true);
    expect(allows(statements, 'dynamodb:DeleteItem', table)).toBe(true);
    const actions = statements.flatMap((st) => [st.Action].flat() as string[]);
    expect(actions.filter((a) => /^(sqs|s3|ses):/.test(a))).toEqual([]);
  });
});

describe('the functions', () => {
  it('are one per endpoint group, one per worker, one per scheduled job, the inbound function, and the custom resource that deactivates the rule set', () => {
    template.resourceCountIs('AWS::Lambda::Function', groupNames.length + workerNames.length + Object.keys(schedules).length + 1 + 1);
    expect(Object.keys(stack.api.functions).sort()).toEqual([...groupNames].sort());
    expect(Object.keys(stack.workers.functions).sort()).toEqual([...workerNames].sort());
  });

  it('all run Node.js 22 on arm64 with active tracing and source maps', () => {
    const resources = template.toJSON().Resources;
    for (const [, fn] of allFunctions()) {
      expect(resources[logicalId(fn.function)].Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        Environment: { Variables: expect.objectContaining({ NODE_OPTIONS: '--enable-source-maps' }) },
      });
    }
  });

  it('all log to their own log group, kept one month', () => {
    const resources = template.toJSON().Resources;
    for (const [, fn] of allFunctions()) {
      expect(resources[logicalId(fn.function)].Properties.LoggingConfig).toEqual({ LogGroup: { Ref: logicalId(fn.logGroup) } });
      expect(resources[logicalId(fn.logGroup)].Properties.RetentionInDays).toBe(30);
    }
  });

  // Every function: TABLE_NAME, TOKEN_SECRET_ARN, NODE_OPTIONS; then what it enqueues to, stores,
  // sends and reads as settings (lib/access.ts). Never TOKEN_SECRET, never a variable it does not read.
  const ownVariables: Record<string, string[]> = {
    send: ['SEND_QUEUE_URL', 'SCHEDULED_QUEUE_URL', 'PAYLOAD_BUCKET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN'],
    activity: ['PAYLOAD_BUCKET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN'],
    batches: ['FANOUT_QUEUE_URL', 'SCHEDULED_QUEUE_URL', 'PAYLOAD_BUCKET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN'],
    'batch-fanout': ['BATCH_SEND_QUEUE_URL', 'EVENTS_QUEUE_URL', 'PAYLOAD_BUCKET'],
    'batch-send-worker': ['SEND_QUEUE_URL', 'EVENTS_QUEUE_URL', 'PAYLOAD_BUCKET', 'SES_CONFIGURATION_SET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_BASE_URL'],
    suppressions: ['EVENTS_QUEUE_URL'],
    webhooks: ['WEBHOOKS_QUEUE_URL'],
    templates: [],
    domains: ['EVENTS_QUEUE_URL', 'SES_CONFIGURATION_SET', 'SES_IDENTITY_OWNER', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN'],
    pages: ['EVENTS_QUEUE_URL', 'SES_CONFIGURATION_SET', 'SES_IDENTITY_OWNER', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN'],
    tracking: ['EVENTS_QUEUE_URL'],
    links: ['EVENTS_QUEUE_URL'],
    docs: [],
    console: [],
    partner: ['CAMPAIGNS_QUEUE_URL', 'EVENTS_QUEUE_URL', 'SES_CONFIGURATION_SET', 'SES_IDENTITY_OWNER', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN'],
    'scheduled-sends': ['SCHEDULED_QUEUE_URL'],
    'send-worker': ['SEND_QUEUE_URL', 'EVENTS_QUEUE_URL', 'PAYLOAD_BUCKET', 'SES_CONFIGURATION_SET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_BASE_URL'],
    'ses-events': ['EVENTS_QUEUE_URL'],
    'webhook-fanout': ['WEBHOOKS_QUEUE_URL'],
    'webhook-delivery': ['WEBHOOKS_QUEUE_URL'],
    'scheduled-send-worker': ['SEND_QUEUE_URL', 'SCHEDULED_QUEUE_URL', 'FANOUT_QUEUE_URL', 'EVENTS_QUEUE_URL', 'PAYLOAD_BUCKET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_BASE_URL'],
    'domain-recheck': ['EVENTS_QUEUE_URL', 'SES_CONFIGURATION_SET', 'SES_IDENTITY_OWNER', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN'],
    'dns-sweep': ['RECEIVING', 'INBOUND_DOMAIN'],
    'scheduled-sweep': ['SCHEDULED_QUEUE_URL'],
    inbound: ['EVENTS_QUEUE_URL', 'SES_CONFIGURATION_SET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'INBOUND_BUCKET'],
    leads: ['AUTOMATIONS_QUEUE_URL'],
    segments: ['AUDIENCE_QUEUE_URL'],
    events: ['AUTOMATIONS_QUEUE_URL'],
    'audience-worker': ['AUDIENCE_QUEUE_URL', 'AUTOMATIONS_QUEUE_URL'],
    'campaign-engine': ['CAMPAIGNS_QUEUE_URL', 'FANOUT_QUEUE_URL', 'EVENTS_QUEUE_URL', 'BATCH_SEND_QUEUE_URL', 'PAYLOAD_BUCKET', 'CAMPAIGNS_QUEUE_ARN', 'CAMPAIGN_TIMER_ROLE_ARN', 'SERVICE_NAME', 'TRACKING_BASE_URL'],
    'lead-imports': ['IMPORTS_QUEUE_URL', 'PAYLOAD_BUCKET'],
    campaigns: ['CAMPAIGNS_QUEUE_URL', 'PAYLOAD_BUCKET'],
    'lead-import-worker': ['IMPORTS_QUEUE_URL', 'PAYLOAD_BUCKET', 'AUTOMATIONS_QUEUE_URL'],
    'campaign-reports': ['EXPORTS_QUEUE_URL', 'PAYLOAD_BUCKET'],
    'campaign-export-worker': ['EXPORTS_QUEUE_URL', 'PAYLOAD_BUCKET'],
    automations: ['AUTOMATIONS_QUEUE_URL'],
    'automation-dates': ['AUTOMATIONS_QUEUE_URL'],
    'automation-engine': ['AUTOMATIONS_QUEUE_URL', 'SEND_QUEUE_URL', 'WEBHOOKS_QUEUE_URL', 'PAYLOAD_BUCKET', 'SERVICE_NAME', 'RECEIVING', 'INBOUND_DOMAIN', 'TRACKING_BASE_URL'],
    'automation-sweep': ['AUTOMATIONS_QUEUE_URL'],
  };

  it('the expectations below name every function of the stack', () => {
    expect(allFunctions().map(([name]) => name).sort()).toEqual(Object.keys(ownVariables).sort());
  });

  it.each(Object.entries(ownVariables))('%s: gets exactly the variables it reads', (name, own) => {
    const env = environmentOf(allFunctions().find(([n]) => n === name)![1]);
    expect(Object.keys(env).sort()).toEqual(['NODE_OPTIONS', 'TABLE_NAME', 'TOKEN_SECRET_ARN', ...own].sort());
    if (own.includes('SERVICE_NAME')) expect(env.SERVICE_NAME).toBe('Mailroom');
    if (own.includes('INBOUND_DOMAIN')) expect(env.INBOUND_DOMAIN).toBe('reply.example.com');
    if (own.includes('RECEIVING')) expect(env.RECEIVING).toBe('on');
    for (const [queue, def] of Object.entries(queues)) {
      if (own.includes(def.urlEnv)) expect(env[def.urlEnv]).toEqual({ Ref: logicalId(stack.queues.queues[queue as QueueName]) });
    }
  });

  it.each([...groupNames, ...workerNames])('%s: may read the token secret and the table', (name) => {
    const fn = functionNamed(name);
    const statements = statementsOf(fn);
    expect(allows(statements, 'secretsmanager:GetSecretValue', { Ref: logicalId(stack.tokenSecret.secret) })).toBe(true);
    expect(allows(statements, 'dynamodb:GetItem', { 'Fn::GetAtt': [logicalId(stack.storage.table), 'Arn'] })).toBe(true);
    expect(environmentOf(fn).TOKEN_SECRET_ARN).toEqual({ Ref: logicalId(stack.tokenSecret.secret) });
  });
});

describe('the workers', () => {
  it.each(workerNames)('%s: reads its queue in batches with partial batch responses', (name) => {
    const queueName = workers[name].queue;
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.workers.functions[name].function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.queues.queues[queueName]), 'Arn'] },
      BatchSize: queues[queueName].batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumBatchingWindowInSeconds: 1,
    });
  });

  it.each(workerNames)('%s: times out before its queue redelivers the message', (name) => {
    const fn = template.toJSON().Resources[logicalId(stack.workers.functions[name].function)];
    expect(fn.Properties.Timeout).toBeLessThanOrEqual(queues[workers[name].queue].visibilityTimeoutSeconds);
  });
});

describe('least privilege', () => {
  const sendQueueArn = () => ({ 'Fn::GetAtt': [logicalId(stack.queues.queues.send), 'Arn'] });

  it('the send group may enqueue to the send queue and put payloads', () => {
    const statements = statementsOf(stack.api.functions.send);
    expect(allows(statements, 'sqs:SendMessage', sendQueueArn())).toBe(true);
    expect(allows(statements, 's3:PutObject')).toBe(true);
    expect(allows(statements, 'dynamodb:PutItem')).toBe(true);
    expect(allows(statements, /^ses:/)).toBe(false);
  });

  it('the send worker may send raw mail through SES on the identities and the configuration set', () => {
    const statements = statementsOf(stack.workers.functions['send-worker']);
    const ses = statements.filter((s) => actionsOf(s).includes('ses:SendRawEmail'));
    expect(ses).toHaveLength(1);
    const resources = JSON.stringify(ses[0].Resource);
    expect(resources).toContain(':identity/*');
    expect(resources).toContain(':configuration-set/');
    expect(resources).toContain(logicalId(stack.ses.configurationSet));
    expect(allows(statements, 'ses:SendEmail')).toBe(true);
  });

  it('the send worker may re-enqueue retries, read payloads and update the table', () => {
    const statements = statementsOf(stack.workers.functions['send-worker']);
    expect(allows(statements, 'sqs:SendMessage', sendQueueArn())).toBe(true);
    expect(allows(statements, 's3:GetObject*')).toBe(true);
    expect(allows(statements, 's3:PutObject')).toBe(false);
    expect(allows(statements, 'dynamodb:UpdateItem')).toBe(true);
    expect(environmentOf(stack.workers.functions['send-worker']).SES_CONFIGURATION_SET).toEqual({ Ref: logicalId(stack.ses.configurationSet) });
  });

  it('the domains group manages SES identities and publishes events, but cannot send mail', () => {
    const statements = statementsOf(stack.api.functions.domains);
    for (const action of ['ses:CreateEmailIdentity', 'ses:GetEmailIdentity', 'ses:DeleteEmailIdentity', 'ses:PutEmailIdentityMailFromAttributes']) {
      expect(allows(statements, action)).toBe(true);
    }
    expect(allows(statements, 'ses:SendRawEmail')).toBe(false);
    expect(allows(statements, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.events), 'Arn'] })).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', sendQueueArn())).toBe(false);
  });

  it('the domain re-check job may ask SES about identities and mail sender-confirmation links; the DNS sweep may not', () => {
    const recheck = statementsOfRole(template, logicalId(stack.scheduling.functions['domain-recheck'].function.role!));
    expect(allows(recheck, 'ses:GetEmailIdentity')).toBe(true);
    expect(allows(recheck, 'ses:SendRawEmail')).toBe(true);
    const sweep = statementsOfRole(template, logicalId(stack.scheduling.functions['dns-sweep'].function.role!));
    expect(allows(sweep, /^ses:/)).toBe(false);
    expect(allows(sweep, 'sqs:SendMessage')).toBe(false);
  });

  it('the activity group may read the table and nothing that sends or writes', () => {
    const statements = statementsOf(stack.api.functions.activity);
    expect(allows(statements, 'dynamodb:Query')).toBe(true);
    expect(allows(statements, 'sqs:SendMessage')).toBe(false);
    expect(allows(statements, /^ses:/)).toBe(false);
    // It reads a batch's recipient chunk for an activity the fan-out has not written yet; it writes no object.
    expect(allows(statements, /^s3:(Put|Delete)/)).toBe(false);
    expect(allows(statements, /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/)).toBe(false);
  });
});

describe('the SES configuration set', () => {
  it('exists and is named as SES_CONFIGURATION_SET to every function that sends or registers identities', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    const named = allFunctions().filter(([, fn]) => 'SES_CONFIGURATION_SET' in environmentOf(fn));
    expect(named.map(([n]) => n).sort()).toEqual(['batch-send-worker', 'domain-recheck', 'domains', 'inbound', 'pages', 'partner', 'send-worker']);
    for (const [, fn] of named) expect(environmentOf(fn).SES_CONFIGURATION_SET).toEqual({ Ref: logicalId(stack.ses.configurationSet) });
  });
});

describe('the token secret', () => {
  it('is a generated 48-character string', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({ PasswordLength: 48 }),
    });
  });
});

describe('cdk-nag AWS Solutions checks', () => {
  it('leave no unsuppressed error', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});

describe('SES events (configuration set -> SNS -> SQS -> worker)', () => {
  it('the configuration set publishes delivery, bounce, complaint and the other outcomes to an SNS topic', () => {
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: logicalId(stack.ses.configurationSet) },
      EventDestination: Match.objectLike({
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['delivery', 'bounce', 'complaint', 'reject', 'renderingFailure', 'deliveryDelay']),
        SnsDestination: { TopicARN: { Ref: logicalId(stack.sesEvents.topic) } },
      }),
    });
  });

  it('the topic delivers raw messages to the ses-events queue, which the ses-events worker reads', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'sqs',
      RawMessageDelivery: true,
      Endpoint: { 'Fn::GetAtt': [logicalId(stack.queues.queues['ses-events']), 'Arn'] },
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.queues.queues['ses-events']), 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('the ses-events worker may publish events but cannot send mail', () => {
    const statements = statementsOf(stack.workers.functions['ses-events']);
    expect(allows(statements, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.events), 'Arn'] })).toBe(true);
    expect(allows(statements, /^ses:/)).toBe(false);
  });
});

describe('open and click tracking', () => {
  it('the send worker knows the API URL for tracking links; the public tracking routes exist', () => {
    expect(environmentOf(stack.workers.functions['send-worker']).TRACKING_BASE_URL).toBeDefined();
    const keys = template.findResources('AWS::ApiGatewayV2::Route');
    const routeKeys = Object.values(keys).map((r) => (r as { Properties: { RouteKey: string } }).Properties.RouteKey);
    expect(routeKeys).toEqual(expect.arrayContaining(['GET /t/o/{token}', 'GET /t/c/{token}']));
  });
});

describe('scheduled sends (queue `scheduled`, worker, minute sweep)', () => {
  const queueArn = (name: QueueName) => ({ 'Fn::GetAtt': [logicalId(stack.queues.queues[name]), 'Arn'] });
  const roleStatements = (fn: ProjectFunction) => statementsOfRole(template, logicalId(fn.function.role!));

  it('the scheduled queue exists and redrives to its own DLQ', () => {
    const queue = template.toJSON().Resources[logicalId(stack.queues.queues.scheduled)];
    expect(queue.Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(stack.queues.deadLetterQueues.scheduled), 'Arn'] },
      maxReceiveCount: queues.scheduled.maxReceiveCount,
    });
  });

  it('the scheduled-send worker reads it with partial batch responses', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.workers.functions['scheduled-send-worker'].function) },
      EventSourceArn: queueArn('scheduled'),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('the sweep runs every minute, on its own function', () => {
    const schedule = template.toJSON().Resources[logicalId(stack.scheduling.schedules['scheduled-sweep'])];
    expect(rateExpression(schedules['scheduled-sweep'].everySeconds)).toBe('rate(1 minute)');
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(1 minute)',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: { 'Fn::GetAtt': [logicalId(stack.scheduling.functions['scheduled-sweep'].function), 'Arn'] } },
    });
  });

  it('the worker may queue the mail on the send queue (payloads to the bucket), re-queue fire messages and publish email.failed, but not call SES', () => {
    const statements = roleStatements(stack.workers.functions['scheduled-send-worker']);
    expect(allows(statements, 'sqs:SendMessage', queueArn('send'))).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('scheduled'))).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('events'))).toBe(true);
    expect(allows(statements, 's3:PutObject')).toBe(true);
    expect(allows(statements, 'dynamodb:UpdateItem')).toBe(true);
    expect(allows(statements, /^ses:/)).toBe(false);
  });

  it('the sweep may read the table and queue fire messages, and write nothing', () => {
    const statements = roleStatements(stack.scheduling.functions['scheduled-sweep']);
    expect(allows(statements, 'dynamodb:Query')).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('scheduled'))).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('send'))).toBe(false);
    expect(allows(statements, /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/)).toBe(false);
    expect(allows(statements, /^(ses|s3):/)).toBe(false);
  });

  it('the scheduled-sends group may update sends and queue fire messages, but not mail', () => {
    const statements = roleStatements(stack.api.functions['scheduled-sends']);
    expect(allows(statements, 'dynamodb:UpdateItem')).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('scheduled'))).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('send'))).toBe(false);
    expect(allows(statements, /^(ses|s3):/)).toBe(false);
  });

  it('the send group may queue the fire message of a send due soon', () => {
    expect(allows(roleStatements(stack.api.functions.send), 'sqs:SendMessage', queueArn('scheduled'))).toBe(true);
  });
});

describe('the automation engine and its minute sweep', () => {
  const queueArn = (name: QueueName) => ({ 'Fn::GetAtt': [logicalId(stack.queues.queues[name]), 'Arn'] });
  const roleStatements = (fn: ProjectFunction) => statementsOfRole(template, logicalId(fn.function.role!));

  it('the engine reads the automations queue with partial batch responses', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.workers.functions['automation-engine'].function) },
      EventSourceArn: queueArn('automations'),
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('the engine may write the table, queue its own messages, mails (payloads to the bucket) and webhook deliveries, and nothing else', () => {
    const statements = roleStatements(stack.workers.functions['automation-engine']);
    expect(allows(statements, 'dynamodb:UpdateItem')).toBe(true);
    for (const queue of ['automations', 'send', 'webhooks'] as const) expect(allows(statements, 'sqs:SendMessage', queueArn(queue))).toBe(true);
    for (const queue of ['events', 'campaigns', 'fanout', 'batch-send', 'scheduled'] as const) expect([queue, allows(statements, 'sqs:SendMessage', queueArn(queue))]).toEqual([queue, false]);
    expect(allows(statements, 's3:PutObject')).toBe(true);
    expect(allows(statements, /^(ses|scheduler):/)).toBe(false);
  });

  it('the engine has 1,024 MB: entries are CPU-bound, and a full batch must end well within its 60 s', () => {
    const engine = template.toJSON().Resources[logicalId(stack.workers.functions['automation-engine'].function)];
    expect(engine.Properties).toMatchObject({ MemorySize: 1024, Timeout: 60 });
  });

  it('the sweep runs every minute on its own function, may read the table, queue wakes and save its cursor, and nothing else', () => {
    const schedule = template.toJSON().Resources[logicalId(stack.scheduling.schedules['automation-sweep'])];
    expect(rateExpression(schedules['automation-sweep'].everySeconds)).toBe('rate(1 minute)');
    expect(schedule.Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', Target: { Arn: { 'Fn::GetAtt': [logicalId(stack.scheduling.functions['automation-sweep'].function), 'Arn'] } } });
    const statements = roleStatements(stack.scheduling.functions['automation-sweep']);
    expect(allows(statements, 'dynamodb:Query')).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('automations'))).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', queueArn('send'))).toBe(false);
    expect(allows(statements, 'dynamodb:PutItem')).toBe(true);
    expect(allows(statements, /^(ses|s3):/)).toBe(false);
  });
});

describe('campaign timers (EventBridge Scheduler one-time schedules of the campaign engine)', () => {
  const timerRoleId = () => {
    // The recurring jobs' schedules have their own scheduler role (lib/scheduling.ts).
    const roles = Object.entries(template.findResources('AWS::IAM::Role')).filter(
      ([id, r]) => id.startsWith('CampaignTimers') && JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'),
    );
    expect(roles).toHaveLength(1);
    return roles[0][0];
  };
  const campaignsQueueArn = () => ({ 'Fn::GetAtt': [logicalId(stack.queues.queues.campaigns), 'Arn'] });

  it('the timer role is assumed by EventBridge Scheduler of this account only, and may only send to the campaigns queue', () => {
    const role = template.toJSON().Resources[timerRoleId()];
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({ Action: 'sts:AssumeRole', Principal: { Service: 'scheduler.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } } }),
    ]);
    const statements = statementsOfRole(template, timerRoleId());
    expect(statements.flatMap(actionsOf).every((a) => a.startsWith('sqs:'))).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', campaignsQueueArn())).toBe(true);
    expect(statements.every((s) => JSON.stringify(s.Resource) === JSON.stringify(campaignsQueueArn()))).toBe(true);
  });

  it('the campaign engine may create schedules, pass only the timer role and only to the scheduler, and read the SES send rate', () => {
    const fn = functionNamed('campaign-engine');
    const statements = statementsOf(fn);
    expect(allows(statements, 'scheduler:CreateSchedule', { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':scheduler:eu-west-1:123456789012:schedule/default/*']] })).toBe(true);
    const passRole = statements.filter((s) => actionsOf(s).includes('iam:PassRole'));
    expect(passRole).toEqual([expect.objectContaining({ Resource: { 'Fn::GetAtt': [timerRoleId(), 'Arn'] }, Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } } })]);
    expect(allows(statements, 'ses:GetAccount', '*')).toBe(true);
    expect(allows(statements, /^ses:Send/)).toBe(false);
    expect(allows(statements, 'sqs:SendMessage', campaignsQueueArn())).toBe(true);
    expect(allows(statements, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues['batch-send']), 'Arn'] })).toBe(true);
    const env = environmentOf(fn);
    expect(env.CAMPAIGN_TIMER_ROLE_ARN).toEqual({ 'Fn::GetAtt': [timerRoleId(), 'Arn'] });
    expect(env.CAMPAIGNS_QUEUE_ARN).toEqual(campaignsQueueArn());
  });

  it('no other function may create schedules or pass a role', () => {
    for (const [name, fn] of allFunctions()) {
      if (name === 'campaign-engine') continue;
      const statements = statementsOf(fn);
      expect([name, allows(statements, /^scheduler:/) || allows(statements, 'iam:PassRole')]).toEqual([name, false]);
    }
  });
});
