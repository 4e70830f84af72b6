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
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'MailroomCampaignReports', { env: { account: '123456789012', region: 'eu-west-1' } });
  template = Template.fromStack(stack);
});

const resource = (fn: { function: object }) => template.toJSON().Resources[logicalId(fn.function as never)];

/** The S3 actions a function's role policy allows. */
function bucketActions(fn: { function: { role?: object } }): string[] {
  const roleId = logicalId((fn.function as { role: never }).role);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId));
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('s3:'));
}

describe('campaign reports', () => {
  it('routes the report paths to the campaign-reports group function', () => {
    const resources = template.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>;
    const fnId = logicalId(stack.api.functions['campaign-reports'].function);
    const functionOf = (key: string) => {
      const route = Object.values(resources).find((r) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.RouteKey === key);
      const integrationId = /"Ref":"([^"]+)"/.exec(JSON.stringify(route?.Properties.Target))?.[1] ?? '';
      return JSON.stringify(resources[integrationId]?.Properties.IntegrationUri);
    };
    for (const key of ['GET /v1/campaigns/{id}/recipients', 'GET /v1/campaigns/{id}/left-out', 'POST /v1/campaigns/{id}/exports', 'GET /v1/campaigns/{id}/exports/{exportId}']) {
      expect(functionOf(key)).toContain(fnId);
    }
  });

  it('runs the export worker up to 15 minutes, one message at a time, within the exports queue\'s visibility timeout, with a dead-letter queue', () => {
    expect(resource(stack.workers.functions['campaign-export-worker']).Properties.Timeout).toBe(900);
    expect(queues.exports.visibilityTimeoutSeconds).toBeGreaterThan(900);
    template.hasResourceProperties('AWS::SQS::Queue', { VisibilityTimeout: queues.exports.visibilityTimeoutSeconds, RedrivePolicy: Match.objectLike({ maxReceiveCount: 8 }) });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.workers.functions['campaign-export-worker'].function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.queues.queues.exports), 'Arn'] },
      BatchSize: 1,
    });
  });

  it('lets the worker write the CSV (put, multipart) and the API only read it (the presigned download)', () => {
    expect(bucketActions(stack.workers.functions['campaign-export-worker'])).toContain('s3:PutObject');
    expect(bucketActions(stack.workers.functions['campaign-export-worker'])).not.toContain('s3:GetObject*');
    expect(bucketActions(stack.api.functions['campaign-reports'])).toContain('s3:GetObject*');
    expect(bucketActions(stack.api.functions['campaign-reports'])).not.toContain('s3:PutObject');
  });
});
