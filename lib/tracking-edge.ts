import { Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

export interface TrackingEdgeProps {
  /** The HTTP API whose tracking routes (`/t/*`) the customers' tracking domains serve. */
  readonly httpApi: apigw.IHttpApi;
  /** The host customers' tracking CNAMEs point to (TRACKING_HOST); the operator CNAMEs it to `routingEndpoint`. */
  readonly trackingHost: string;
}

/**
 * HTTPS for customers' tracking domains with CloudFront SaaS Manager: a multi-tenant distribution in
 * front of the API's tracking routes and a connection group whose routing endpoint TRACKING_HOST
 * points to. Each verified tracking domain becomes a distribution tenant with a CloudFront-managed
 * certificate, created at run time by the domain re-check (see grantServeTenants). See
 * docs/decisions.md, "Tracking domains and TLS".
 */
export class TrackingEdge extends Construct {
  /** The multi-tenant distribution (TRACKING_DISTRIBUTION_ID). */
  public readonly distribution: cloudfront.CfnDistribution;
  /** The connection group the tenants join (TRACKING_CONNECTION_GROUP_ID). */
  public readonly connectionGroup: cloudfront.CfnConnectionGroup;
  /** The CloudFront name that TRACKING_HOST must be a CNAME of. */
  public readonly routingEndpoint: string;
  /** TRACKING_HOST. */
  public readonly trackingHost: string;

  constructor(scope: Construct, id: string, props: TrackingEdgeProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.trackingHost = props.trackingHost;

    this.connectionGroup = new cloudfront.CfnConnectionGroup(this, 'ConnectionGroup', {
      name: `${stack.stackName}-tracking`.slice(0, 64),
      enabled: true,
      ipv6Enabled: true,
    });
    this.routingEndpoint = this.connectionGroup.attrRoutingEndpoint;

    // Only the open pixel and the click redirect are served on customers' names; everything else
    // of the API stays on its own URL, so a tracking domain is no second door to the API.
    const notFound = new cloudfront.Function(this, 'OnlyTrackingRoutes', {
      comment: 'Answers 404 to every path but the tracking routes',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline('function handler() { return { statusCode: 404, statusDescription: "Not Found" }; }'),
    });

    const originId = 'api';
    const apiBehavior = {
      targetOriginId: originId,
      viewerProtocolPolicy: 'redirect-to-https',
      allowedMethods: ['GET', 'HEAD'],
      cachedMethods: ['GET', 'HEAD'],
      compress: true,
      // Every open and click must reach the function; API Gateway must see its own Host header.
      cachePolicyId: cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId,
      originRequestPolicyId: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    };
    this.distribution = new cloudfront.CfnDistribution(this, 'Distribution', {
      distributionConfig: {
        enabled: true,
        comment: 'Customers\' tracking domains (one tenant each)',
        connectionMode: 'tenant-only',
        httpVersion: 'http2and3',
        origins: [
          {
            id: originId,
            domainName: `${props.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`,
            customOriginConfig: { originProtocolPolicy: 'https-only', originSslProtocols: ['TLSv1.2'] },
          },
        ],
        defaultCacheBehavior: {
          ...apiBehavior,
          functionAssociations: [{ eventType: 'viewer-request', functionArn: notFound.functionArn }],
        },
        cacheBehaviors: [{ ...apiBehavior, pathPattern: '/t/*' }],
        // Tenants bring their own (CloudFront-managed) certificates; the distribution itself has no name to serve.
        viewerCertificate: { cloudFrontDefaultCertificate: true },
      },
    });

    NagSuppressions.addResourceSuppressions(this.distribution, [
      { id: 'AwsSolutions-CFR1', reason: 'Tracking links are opened by mail recipients anywhere; a geo restriction would break them.' },
      { id: 'AwsSolutions-CFR2', reason: 'Only the open pixel and click redirect pass, behind signed tokens; API Gateway throttles behind it. A WAF web ACL is an operator choice with its own cost.' },
      { id: 'AwsSolutions-CFR3', reason: 'The API stage keeps access logs of every request that reaches the tracking routes.' },
      { id: 'AwsSolutions-CFR4', reason: 'Viewers are served with each tenant\'s CloudFront-managed certificate; the distribution\'s own default certificate serves no name.' },
    ]);
  }

  /**
   * Lets a function create the tenants of tracking domains and read their state: the distribution,
   * its connection group and the account's tenants (tenant ARNs are made by CloudFront at run time).
   */
  grantServeTenants(fn: lambda.Function): void {
    const stack = Stack.of(this);
    const tenants = stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution-tenant', resourceName: '*' });
    const distribution = stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: this.distribution.attrId });
    fn.addEnvironment('TRACKING_DISTRIBUTION_ID', this.distribution.attrId);
    fn.addEnvironment('TRACKING_CONNECTION_GROUP_ID', this.connectionGroup.attrId);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront:CreateDistributionTenant'],
        resources: [distribution, this.connectionGroup.attrArn, tenants],
      }),
    );
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cloudfront:GetDistributionTenantByDomain', 'cloudfront:GetManagedCertificateDetails'],
        resources: [tenants],
      }),
    );
    if (fn.role) {
      NagSuppressions.addResourceSuppressions(
        fn.role,
        [
          {
            id: 'AwsSolutions-IAM5',
            reason: 'Tenants are created at run time, one per verified tracking domain, so their ARNs are not known at deploy time.',
            appliesTo: [{ regex: '/^Resource::arn:<AWS::Partition>:cloudfront::.+:distribution-tenant\\/\\*$/' }],
          },
        ],
        true,
      );
    }
  }
}
