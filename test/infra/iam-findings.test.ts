import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { denial } from '../../local/iam/enforce';
import { LOCAL_ACCOUNT, LOCAL_INBOUND_DOMAIN, LOCAL_REGION } from '../../local/iam/policy-map-format';
import { policyMapOf } from '../../local/iam/synth-policy-map';
import { logicalId } from './template-helpers';
import { campaignIdsObjectKey } from '../../shared/marketing/campaigns/audience-cursor';
import { leadImportObjectKey } from '../../shared/platform/store/keys';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about policies. Each finding is
// checked by the local IAM evaluator against the synthesized template (docs/local-iam.md).
const app = new App({ context: { 'aws:cdk:bundling-stacks': [], alarmEmail: 'ops@example.com' } });
const stack = new EmailApiStack(app, 'Alarmed', { env: { account: LOCAL_ACCOUNT, region: LOCAL_REGION }, inboundDomain: LOCAL_INBOUND_DOMAIN });
const template = Template.fromStack(stack);
const map = policyMapOf(stack, template.toJSON() as { Resources: Record<string, { Type: string }> });

const topicArn = `arn:aws:sns:${LOCAL_REGION}:${LOCAL_ACCOUNT}:\${alarmTopic}`;
const alarmArn = `arn:aws:cloudwatch:${LOCAL_REGION}:${LOCAL_ACCOUNT}:alarm:Alarmed-QueuesSendDlqAlarm`;
const cloudWatch = { kind: 'service', service: 'cloudwatch.amazonaws.com', sourceArn: alarmArn } as const;
const publish = { action: 'sns:Publish', resource: topicArn };

describe('the alert topic (alarmEmail)', () => {
  it('lets CloudWatch publish this account\'s alarms, by its resource policy (the local IAM evaluator)', () => {
    expect(map.resourcePolicies.some((p) => p.resources.includes(topicArn))).toBe(true);
    expect(denial(map, cloudWatch, publish)).toBeUndefined();
  });

  it('refuses alarms of another account, and any publish over plain HTTP', () => {
    expect(denial(map, { ...cloudWatch, sourceArn: alarmArn.replace(LOCAL_ACCOUNT, '111111111111') }, { ...publish, context: { 'aws:SourceAccount': '111111111111' } })).toMatch(/not authorized/);
    expect(denial(map, cloudWatch, { ...publish, context: { 'aws:SecureTransport': 'false' } })).toMatch(/explicit deny/);
  });

  it('keeps the SSL-only Deny and adds the CloudWatch Allow with aws:SourceAccount and aws:SourceArn conditions', () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: logicalId(stack.monitoring.alarmTopic!) }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Condition: { StringEquals: { 'aws:SourceAccount': LOCAL_ACCOUNT }, ArnLike: { 'aws:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });
});

describe('payload reads the functions make', () => {
  const role = (name: string) => ({ kind: 'role', name }) as const;
  const object = (key: string) => `arn:aws:s3:::\${payloads}/${key}`;

  it('lead-imports may HeadObject an upload (s3:GetObject) and list the bucket, so that a missing upload is a 404, not a 403', () => {
    expect(denial(map, role('lead-imports'), { action: 's3:GetObject', resource: object(leadImportObjectKey('p1', 'i1')) })).toBeUndefined();
    expect(denial(map, role('lead-imports'), { action: 's3:ListBucket', resource: 'arn:aws:s3:::${payloads}' })).toBeUndefined();
    expect(denial(map, role('lead-imports'), { action: 's3:PutObject', resource: object(leadImportObjectKey('p1', 'i1')) })).toBeUndefined();
    expect(denial(map, role('lead-imports'), { action: 's3:DeleteObject', resource: object(leadImportObjectKey('p1', 'i1')) })).toMatch(/not authorized/);
  });

  it('the campaign engine may read a campaign\'s recipientIds (ids.json) and write its wave chunks', () => {
    expect(denial(map, role('campaign-engine'), { action: 's3:GetObject', resource: object(campaignIdsObjectKey('p1', 'c1')) })).toBeUndefined();
    expect(denial(map, role('campaign-engine'), { action: 's3:PutObject', resource: object('batches/p1/b1/content.json') })).toBeUndefined();
  });
});
