import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { allows, logicalId, statementsOfRole } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about routes, variables and grants, not code.
let stack: EmailApiStack;
let template: Template;

beforeAll(() => {
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'MailroomCampaignsApi', { env: { account: '123456789012', region: 'eu-west-1' } });
  template = Template.fromStack(stack);
});

const CAMPAIGN_ROUTES = ['POST /v1/campaigns', 'GET /v1/campaigns', 'GET /v1/campaigns/{id}', 'POST /v1/campaigns/{id}/cancel', 'POST /v1/campaigns/{id}/pause', 'POST /v1/campaigns/{id}/resume'];

const campaignsFunction = () => stack.api.functions.campaigns.function;
const statements = () => statementsOfRole(template, logicalId((campaignsFunction() as unknown as { role: never }).role));

describe('the campaigns endpoint group', () => {
  it('routes every campaigns path to one function, throttled by the stage default (no public route)', () => {
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const target = (route: Record<string, any>) => {
      const ref = JSON.stringify(route.Properties.Target).match(/"Ref":"([^"]+)"/)![1];
      return integrations[ref].Properties.IntegrationUri['Fn::GetAtt'][0];
    };
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).filter((r) => CAMPAIGN_ROUTES.includes(r.Properties.RouteKey));
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual([...CAMPAIGN_ROUTES].sort());
    for (const route of routes) expect(target(route)).toBe(logicalId(campaignsFunction()));
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0];
    for (const key of CAMPAIGN_ROUTES) expect(stage.Properties.RouteSettings ?? {}).not.toHaveProperty([key]);
  });

  it('may write the table, queue engine messages and put the recipientIds blob; no SES', () => {
    const env = template.toJSON().Resources[logicalId(campaignsFunction())].Properties.Environment.Variables;
    expect(env.CAMPAIGNS_QUEUE_URL).toEqual({ Ref: logicalId(stack.queues.queues.campaigns) });
    expect(env.PAYLOAD_BUCKET).toBeDefined();
    const granted = statements();
    expect(allows(granted, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.campaigns), 'Arn'] })).toBe(true);
    expect(allows(granted, 'sqs:SendMessage', { 'Fn::GetAtt': [logicalId(stack.queues.queues.send), 'Arn'] })).toBe(false);
    expect(allows(granted, 'dynamodb:TransactWriteItems') || allows(granted, 'dynamodb:PutItem')).toBe(true);
    expect(allows(granted, 's3:PutObject')).toBe(true);
    expect(allows(granted, 's3:GetObject')).toBe(false);
    expect(allows(granted, /^ses:/)).toBe(false);
  });
});
