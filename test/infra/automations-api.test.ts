import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { allows, logicalId, statementsOfRole } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about routes, variables and grants, not code.
let stack: EmailApiStack;
let template: Template;

beforeAll(() => {
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'MailroomAutomationsApi', { env: { account: '123456789012', region: 'eu-west-1' } });
  template = Template.fromStack(stack);
});

const DEFINITION_ROUTES = [
  'POST /v1/automations',
  'GET /v1/automations',
  'GET /v1/automations/{id}',
  'PUT /v1/automations/{id}',
  'DELETE /v1/automations/{id}',
  'POST /v1/automations/{id}/activate',
  'POST /v1/automations/{id}/pause',
];

const automationsFunction = () => stack.api.functions.automations.function;
const statements = () => statementsOfRole(template, logicalId((automationsFunction() as unknown as { role: never }).role));

describe('the automations endpoint group', () => {
  it('routes every definition path to one function, throttled by the stage default (no public route)', () => {
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const target = (route: Record<string, any>) => {
      const ref = JSON.stringify(route.Properties.Target).match(/"Ref":"([^"]+)"/)![1];
      return integrations[ref].Properties.IntegrationUri['Fn::GetAtt'][0];
    };
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).filter((r) => DEFINITION_ROUTES.includes(r.Properties.RouteKey));
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual([...DEFINITION_ROUTES].sort());
    for (const route of routes) expect(target(route)).toBe(logicalId(automationsFunction()));
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0];
    for (const key of DEFINITION_ROUTES) expect(stage.Properties.RouteSettings ?? {}).not.toHaveProperty([key]);
  });

  it('may write the table and queue the engine\'s release messages; no SES, no other queue', () => {
    const env = template.toJSON().Resources[logicalId(automationsFunction())].Properties.Environment.Variables;
    expect(env.AUTOMATIONS_QUEUE_URL).toEqual({ Ref: logicalId(stack.queues.queues.automations) });
    const granted = statements();
    expect(allows(granted, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.automations), 'Arn'] })).toBe(true);
    expect(allows(granted, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.send), 'Arn'] })).toBe(false);
    expect(allows(granted, 'dynamodb:TransactWriteItems') || allows(granted, 'dynamodb:PutItem')).toBe(true);
    expect(allows(granted, /^ses:/)).toBe(false);
  });
});
