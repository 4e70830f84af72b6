import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ensureConsoleBuilt } from '../console/build';
import { routeTable } from '../functions/route-table';
import { endpointGroups, type EndpointGroup } from '../shared/platform/core/routes';
import { connect, groupAccess, type ServiceResources } from './access';
import { ProjectFunction } from './project-function';
import { pascal } from './queues';

/** Just under API Gateway's 29 s integration limit: the send group may fetch attachments by URL. */
export const API_FUNCTION_TIMEOUT = Duration.seconds(28);

export interface ApiProps {
  /** The shared resources the group functions are connected to. */
  readonly resources: ServiceResources;
  /**
   * Name of the HTTP API.
   * @default the construct path
   */
  readonly apiName?: string;
  /**
   * Throttles of the stage (every route) and of the public token routes, each route on its own.
   * Every value not given here comes from the CDK context (`cdk deploy -c apiRateLimit=1000`), else
   * from `DEFAULT_API_THROTTLES`.
   * @default DEFAULT_API_THROTTLES, overridden by context
   */
  readonly throttles?: Partial<ApiThrottles>;
  /**
   * What happens to the log groups when the stack deletes them.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/** A steady rate (requests per second) and the burst above it that API Gateway lets through. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * The throttle classes: the stage default for every route, and per-route limits for the public
 * routes, which anyone can call without a key.
 */
export interface ApiThrottles {
  /** Every route, per stage (context `apiRateLimit`, `apiBurstLimit`). */
  readonly api: Throttle;
  /** The domain verification page and its verify button, which calls SES (context `verifyRateLimit`, `verifyBurstLimit`). */
  readonly verify: Throttle;
  /** Unsubscribe and view-in-browser pages (context `linksRateLimit`, `linksBurstLimit`). */
  readonly links: Throttle;
  /** Open pixel and click redirect, which readers hit in bursts after a campaign (context `trackingRateLimit`, `trackingBurstLimit`). */
  readonly tracking: Throttle;
}

/**
 * Defaults sized for one deployment: well under the account's 10,000 requests per second that all
 * APIs of a region share, above what SES lets a sender send, and tight where a public route costs
 * an SES call.
 */
export const DEFAULT_API_THROTTLES: ApiThrottles = {
  api: { rateLimit: 500, burstLimit: 1000 },
  verify: { rateLimit: 2, burstLimit: 10 },
  links: { rateLimit: 50, burstLimit: 100 },
  tracking: { rateLimit: 300, burstLimit: 600 },
};

/** One limit: the prop, else the context value, else the default; refused unless a positive number. */
function limitOf(scope: Construct, name: string, prop: number | undefined, fallback: number, whole: boolean): number {
  const raw: unknown = prop ?? scope.node.tryGetContext(name) ?? fallback;
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value))) {
    throw new Error(`${name} must be a ${whole ? 'whole ' : ''}number above 0; got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The throttles in force: props first, then context values, then the defaults. */
export function resolveThrottles(scope: Construct, props: Partial<ApiThrottles> = {}): ApiThrottles {
  const one = (cls: keyof ApiThrottles): Throttle => ({
    rateLimit: limitOf(scope, `${cls}RateLimit`, props[cls]?.rateLimit, DEFAULT_API_THROTTLES[cls].rateLimit, false),
    burstLimit: limitOf(scope, `${cls}BurstLimit`, props[cls]?.burstLimit, DEFAULT_API_THROTTLES[cls].burstLimit, true),
  });
  return { api: one('api'), verify: one('verify'), links: one('links'), tracking: one('tracking') };
}

/** The HTTP API: one function per endpoint group and one route per entry of the route table. */
export class Api extends Construct {
  /** The HTTP API. */
  public readonly httpApi: apigw.HttpApi;
  /** Its `$default` stage, with access logs. */
  public readonly stage: apigw.HttpStage;
  /** Base URL of the API (no trailing path). */
  public readonly url: string;
  /** One function per endpoint group, keyed by group name. */
  public readonly functions: Readonly<Record<EndpointGroup, ProjectFunction>>;
  /** Access log group of the stage. */
  public readonly accessLogs: logs.LogGroup;
  /** The throttles set on the stage and on the public routes. */
  public readonly throttles: ApiThrottles;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      apiName: props.apiName,
      description: 'Email API',
      // The stage is created below, with access logging, which the default stage cannot take.
      createDefaultStage: false,
    });

    this.throttles = resolveThrottles(this, props.throttles);
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle: this.throttles.api,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        // No headers: the Authorization header carries the API key.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    this.url = this.stage.url;

    // The console group's bundle carries the built console (its `assets`): built here, before
    // bundling copies it, unless this synth skips bundling (then nothing is copied).
    if (Stack.of(this).bundlingRequired) ensureConsoleBuilt();

    const functions = {} as Record<EndpointGroup, ProjectFunction>;
    const integrations = {} as Record<EndpointGroup, HttpLambdaIntegration>;
    for (const [group, def] of Object.entries(endpointGroups) as [EndpointGroup, (typeof endpointGroups)[EndpointGroup]][]) {
      const fn = new ProjectFunction(this, pascal(group), {
        entry: def.entry,
        description: def.description,
        timeout: API_FUNCTION_TIMEOUT,
        logRemovalPolicy: props.logRemovalPolicy,
        assets: 'assets' in def ? def.assets : undefined,
      });
      connect(fn.function, props.resources, groupAccess(group));
      functions[group] = fn;
      integrations[group] = new HttpLambdaIntegration(`${pascal(group)}Integration`, fn.function, {
        // One invoke permission per function instead of one per route: the Lambda resource policy
        // and the stack's resource count stay small as routes grow. Only the routes integrated with
        // a function can reach it, so this allows nothing more.
        scopePermissionToRoute: false,
      });
    }
    this.functions = functions;

    // Public routes get limits of their own, so that a flood on one (the verify button calls SES)
    // neither costs much nor eats the stage's budget for the key routes.
    // The L1 property is untyped and passed to CloudFormation as is: its keys are CloudFormation's.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const route of routeTable) {
      const [httpRoute] = this.httpApi.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: integrations[route.group],
      });
      // A route anyone can call without a key has a throttle class of its own (test/unit: every public route names one).
      const cls = route.throttle;
      if (!cls) continue;
      routeSettings[route.key] = { ThrottlingRateLimit: this.throttles[cls].rateLimit, ThrottlingBurstLimit: this.throttles[cls].burstLimit };
      // API Gateway refuses settings for a route key that does not exist yet.
      this.stage.node.addDependency(httpRoute);
    }
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = routeSettings;

    NagSuppressions.addResourceSuppressions(
      this.httpApi,
      [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            'Callers authenticate with the service\'s own API keys (project and partner keys, stored as SHA-256 ' +
            'hashes), checked in the group function; public routes take signed tokens. An API Gateway authorizer ' +
            'would duplicate that check.',
        },
      ],
      true,
    );
  }
}
