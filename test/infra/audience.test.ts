import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { routeTable as routes } from '../../functions/route-table';
import { logicalId } from './template-helpers';

// Synthesizing bundles every function with esbuild: build the stack once for the whole file.
let stack: EmailApiStack;
let template: Template;

beforeAll(() => {
  // Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about resources and grants, not code.
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'MailroomAudience', { env: { account: '123456789012', region: 'eu-west-1' } });
  template = Template.fromStack(stack);
});

const variables = (fn: { function: object }) => template.toJSON().Resources[logicalId(fn.function as never)].Properties.Environment.Variables as Record<string, unknown>;

describe('the audience (leads, segments, custom events)', () => {
  it('routes every lead, segment and event path to its own group function', () => {
    const keys = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    for (const key of ['POST /v1/leads', 'GET /v1/leads/{id}/attributes', 'DELETE /v1/leads/{id}/segments/{segmentId}', 'POST /v1/segments/{id}/evaluate', 'POST /v1/events/bulk']) {
      expect(keys).toContain(key);
    }
    expect(routes.filter((r) => r.path.startsWith('/v1/leads/{')).every((r) => r.path.split('/')[3] === '{id}')).toBe(true);
  });

  it('feeds the audience queue to the audience worker, one job per invocation', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(stack.workers.functions['audience-worker'].function) },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(stack.queues.queues.audience), 'Arn'] },
      BatchSize: 1,
    });
  });

  it('gives the queue URL to the segments group and the worker only', () => {
    expect(variables(stack.api.functions.segments)).toHaveProperty('AUDIENCE_QUEUE_URL');
    expect(variables(stack.workers.functions['audience-worker'])).toHaveProperty('AUDIENCE_QUEUE_URL');
    expect(variables(stack.api.functions.leads)).not.toHaveProperty('AUDIENCE_QUEUE_URL');
    expect(variables(stack.api.functions.events)).not.toHaveProperty('AUDIENCE_QUEUE_URL');
  });
});

describe('lead signals (automations\' triggers)', () => {
  /** Whether a function's role may send to the automations queue. */
  function sendsToAutomations(fn: { function: { role?: object } }): boolean {
    const roleId = logicalId((fn.function as { role: never }).role);
    const queueId = logicalId(stack.queues.queues.automations);
    return Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify(p.Properties.Roles).includes(roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .some((s) => [s.Action].flat().includes('sqs:SendMessage') && JSON.stringify(s.Resource).includes(queueId));
  }

  it('lets every function that reports lead signals queue on automations, with its URL', () => {
    const emitters = [stack.api.functions.leads, stack.api.functions.events, stack.workers.functions['lead-import-worker'], stack.workers.functions['audience-worker']];
    for (const fn of emitters) {
      expect(variables(fn)).toHaveProperty('AUTOMATIONS_QUEUE_URL');
      expect(sendsToAutomations(fn)).toBe(true);
    }
  });

  it('gives no automations queue to the audience functions that report nothing (segments, the import API)', () => {
    for (const fn of [stack.api.functions.segments, stack.api.functions['lead-imports']]) {
      expect(variables(fn)).not.toHaveProperty('AUTOMATIONS_QUEUE_URL');
      expect(sendsToAutomations(fn)).toBe(false);
    }
  });
});
