import { App, Aspects } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EmailApiStack } from '../../lib/email-api-stack';
import { nagErrors } from './template-helpers';

// Bundling is skipped here (`aws:cdk:bundling-stacks`): this file is about removal policies, not code.
let stack: EmailApiStack;
let template: Template;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], inboundDomain: 'in.mail.test' } });
  stack = new EmailApiStack(app, 'Ephemeral', { retainData: false, serviceName: 'Postbox', logLevel: 'debug' });
  Aspects.of(stack).add(new AwsSolutionsChecks());
  template = Template.fromStack(stack);
});

describe('a stack with retainData: false', () => {
  it('deletes the table, the bucket, the secret and the log groups with the stack', () => {
    for (const type of ['AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup']) {
      const resources = Object.values(template.findResources(type));
      expect(resources.length).toBeGreaterThan(0);
      for (const resource of resources) expect([type, resource.DeletionPolicy]).toEqual([type, 'Delete']);
    }
  });

  it('turns off the table deletion protection and empties the buckets (payloads, inbound mail) before deleting them', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: false });
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 2);
  });

  it('takes the service name from the props and the inbound domain from the context', () => {
    const fns = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(fns.length).toBeGreaterThan(0);
    for (const fn of fns) {
      const env = fn.Properties.Environment.Variables;
      expect(env.LOG_LEVEL).toBe('debug');
      if ('SERVICE_NAME' in env) expect(env.SERVICE_NAME).toBe('Postbox');
      if ('INBOUND_DOMAIN' in env) expect(env.INBOUND_DOMAIN).toBe('in.mail.test');
    }
    const named = (key: string) => fns.filter((fn) => key in fn.Properties.Environment.Variables).length;
    expect(named('SERVICE_NAME')).toBeGreaterThan(0);
    expect(named('INBOUND_DOMAIN')).toBeGreaterThan(0);
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'Postbox' });
  });

  it('leaves no unsuppressed cdk-nag error', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});
