import { App, Aspects } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { accessByFunction, scheduledAccess } from '../../lib/access';
import { EmailApiStack } from '../../lib/email-api-stack';
import { allows, logicalId, nagErrors, statementsOfRole } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): these tests are about environment, resources and grants.
const stackOf = (props: ConstructorParameters<typeof EmailApiStack>[2] = {}, context: Record<string, unknown> = {}) =>
  new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Tracking', {
    env: { account: '123456789012', region: 'eu-west-1' },
    ...props,
  });

/** The environment variables of every service function (those that read the table). */
/** How many functions read TRACKING_HOST (lib/access.ts gives it to exactly those). */
const readers = [...Object.values(accessByFunction()), ...Object.values(scheduledAccess)].filter((a) => a.settings?.includes('TRACKING_HOST')).length;

/** The environments that carry TRACKING_HOST; there must be one per function that reads it. */
function serviceEnvironments(template: Template): Record<string, unknown>[] {
  const fns = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.TRACKING_HOST !== undefined);
  expect(readers).toBeGreaterThan(5);
  expect(fns.length).toBe(readers);
  return fns.map((f) => f.Properties.Environment.Variables as Record<string, unknown>);
}

describe('the tracking host (TRACKING_HOST)', () => {
  let stack: EmailApiStack;
  let template: Template;
  beforeAll(() => {
    stack = stackOf({ trackingHost: 'track.mail.example.com' });
    Aspects.of(stack).add(new AwsSolutionsChecks());
    template = Template.fromStack(stack);
  });

  it('is in the environment of every function that reads it, as the prop gives it', () => {
    for (const env of serviceEnvironments(template)) expect(env.TRACKING_HOST).toBe('track.mail.example.com');
  });

  it('deploys a multi-tenant distribution in front of the API and a connection group whose endpoint is an output', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        ConnectionMode: 'tenant-only',
        Origins: [Match.objectLike({ DomainName: Match.anyValue(), CustomOriginConfig: Match.objectLike({ OriginProtocolPolicy: 'https-only' }) })],
        CacheBehaviors: [Match.objectLike({ PathPattern: '/t/*', ViewerProtocolPolicy: 'redirect-to-https' })],
      }),
    });
    template.resourceCountIs('AWS::CloudFront::ConnectionGroup', 1);
    template.hasOutput('TrackingRoutingEndpoint', { Value: { 'Fn::GetAtt': [logicalId(stack.trackingEdge!.connectionGroup), 'RoutingEndpoint'] } });
  });

  it('lets only the domain re-check create and read tenants, and names the distribution in its environment', () => {
    const recheck = stack.scheduling.functions['domain-recheck'].function;
    const statements = statementsOfRole(template, logicalId(recheck.role!));
    for (const action of ['cloudfront:CreateDistributionTenant', 'cloudfront:GetDistributionTenantByDomain', 'cloudfront:GetManagedCertificateDetails']) {
      expect(allows(statements, action)).toBe(true);
    }
    // Scoped to this stack's distribution and connection group, and to tenants (made at run time).
    const distribution = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::123456789012:distribution/', { 'Fn::GetAtt': [logicalId(stack.trackingEdge!.distribution), 'Id'] }]] };
    const tenants = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::123456789012:distribution-tenant/*']] };
    expect(allows(statements, 'cloudfront:CreateDistributionTenant', distribution)).toBe(true);
    expect(allows(statements, 'cloudfront:CreateDistributionTenant', { 'Fn::GetAtt': [logicalId(stack.trackingEdge!.connectionGroup), 'Arn'] })).toBe(true);
    expect(allows(statements, 'cloudfront:GetManagedCertificateDetails', tenants)).toBe(true);
    expect(allows(statements, /^cloudfront:/, '*')).toBe(false);
    const env = template.toJSON().Resources[logicalId(recheck)].Properties.Environment.Variables;
    expect(env.TRACKING_DISTRIBUTION_ID).toEqual({ 'Fn::GetAtt': [logicalId(stack.trackingEdge!.distribution), 'Id'] });
    expect(env.TRACKING_CONNECTION_GROUP_ID).toEqual({ 'Fn::GetAtt': [logicalId(stack.trackingEdge!.connectionGroup), 'Id'] });

    const others = [...Object.values(stack.api.functions), ...Object.values(stack.workers.functions)].map((f) => f.function);
    for (const fn of others) {
      expect(allows(statementsOfRole(template, logicalId(fn.role!)), /^cloudfront:/)).toBe(false);
      expect(template.toJSON().Resources[logicalId(fn)].Properties.Environment.Variables).not.toHaveProperty('TRACKING_DISTRIBUTION_ID');
    }
  });

  it('leaves cdk-nag nothing unsuppressed', () => {
    expect(nagErrors(stack)).toEqual([]);
  });

  it('takes the `trackingHost` context (`cdk deploy -c trackingHost=...`) when the prop is absent', () => {
    for (const env of serviceEnvironments(Template.fromStack(stackOf({}, { trackingHost: 'Track.Other.example.org' })))) {
      expect(env.TRACKING_HOST).toBe('track.other.example.org');
    }
  });

  it('without one, sets no placeholder and deploys no edge (tracking domains are then refused)', () => {
    const bare = stackOf();
    const bareTemplate = Template.fromStack(bare);
    const functions = Object.values(bareTemplate.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME);
    expect(functions.length).toBeGreaterThan(5);
    for (const fn of functions) expect(fn.Properties.Environment.Variables).not.toHaveProperty('TRACKING_HOST');
    bareTemplate.resourceCountIs('AWS::CloudFront::Distribution', 0);
    expect(bare.trackingEdge).toBeUndefined();
  });

  it.each([['https://track.example.com'], ['track.example.com:443'], ['localhost'], [42]])('fails the synth for %p', (value) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], trackingHost: value } });
    expect(() => new EmailApiStack(app, 'Bad')).toThrow(/trackingHost must be a DNS name/);
  });
});
