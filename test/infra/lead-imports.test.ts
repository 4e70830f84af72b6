import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { queues } from '../../shared/platform/core/queues';
import { logicalId } from './template-helpers';

// Synthesizing bundles every function with esbuild: build the stack once for the whole file.
let stack: EmailApiStack;
let template: Template;

beforeAll(() => {
  // Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about resources and grants, not code.
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'MailroomImports', { env: { account: '123456789012', region: 'eu-west-1' } });
  template = Template.fromStack(stack);
});

const resource = (fn: { function: object }) => template.toJSON().Resources[logicalId(fn.function as never)];
const variables = (fn: { function: object }) => resource(fn).Properties.Environment.Variables as Record<string, unknown>;

/** The S3 actions a function's role policy allows on the payload bucket's objects. */
function bucketActions(fn: { function: { role?: object } }): string[] {
  const roleId = logicalId((fn.function as { role: never }).role);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId));
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('s3:'));
}

describe('lead imports', () => {
  it('routes the import paths to the lead-imports group function', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    for (const key of ['POST /v1/leads/imports', 'GET /v1/leads/imports/{id}', 'POST /v1/leads/imports/{id}/start', 'GET /v1/leads/imports/{id}/errors']) expect(keys).toContain(key);
  });

  it('runs the import worker up to 15 minutes, one message at a time, within its queue\'s visibility timeout', () => {
    expect(resource(stack.workers.functions['lead-import-worker']).Properties.Timeout).toBe(900);
    template.hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: queues.imports.visibilityTimeoutSeconds, RedrivePolicy: Match.objectLike({ maxReceiveCount: 8 }) });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.workers.functions['lead-import-worker'].function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.queues.queues.imports), 'Arn'] },
      BatchSize: 1,
    });
  });

  it('lets the API presign uploads (put) and the worker read them (read only); the leads group touches no bucket', () => {
    expect(variables(stack.api.functions['lead-imports'])).toMatchObject({ PAYLOAD_BUCKET: expect.anything(), IMPORTS_QUEUE_URL: expect.anything() });
    expect(variables(stack.workers.functions['lead-import-worker'])).toMatchObject({ PAYLOAD_BUCKET: expect.anything(), IMPORTS_QUEUE_URL: expect.anything() });
    expect(bucketActions(stack.api.functions['lead-imports'])).toContain('s3:PutObject');
    expect(bucketActions(stack.workers.functions['lead-import-worker'])).not.toContain('s3:PutObject');
    expect(bucketActions(stack.workers.functions['lead-import-worker'])).toContain('s3:GetObject*');
    expect(variables(stack.api.functions.leads)).not.toHaveProperty('PAYLOAD_BUCKET');
  });

  it('allows browsers to PUT to the payload bucket, and nothing else cross-origin', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedMethods: ['PUT'], AllowedOrigins: ['*'] })] },
    });
  });
});
