import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { endpointGroups, routes, type EndpointGroup } from '../shared/routes';
import { connect, functionAccess, type ServiceResources } from './access';
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
   * Steady-state requests per second for the whole stage.
   * @default - the account's API Gateway limit
   */
  readonly rateLimit?: number;
  /**
   * Burst of requests for the whole stage.
   * @default - the account's API Gateway limit
   */
  readonly burstLimit?: number;
  /**
   * What happens to the log groups when the stack deletes them.
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;
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

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      apiName: props.apiName,
      description: 'Email API',
      // The stage is created below, with access logging, which the default stage cannot take.
      createDefaultStage: false,
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle:
        props.rateLimit !== undefined || props.burstLimit !== undefined
          ? { rateLimit: props.rateLimit, burstLimit: props.burstLimit }
          : undefined,
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

    const functions = {} as Record<EndpointGroup, ProjectFunction>;
    const integrations = {} as Record<EndpointGroup, HttpLambdaIntegration>;
    for (const [group, def] of Object.entries(endpointGroups) as [EndpointGroup, (typeof endpointGroups)[EndpointGroup]][]) {
      const fn = new ProjectFunction(this, pascal(group), {
        entry: def.entry,
        description: def.description,
        timeout: API_FUNCTION_TIMEOUT,
        logRemovalPolicy: props.logRemovalPolicy,
      });
      connect(fn.function, props.resources, functionAccess[group]);
      functions[group] = fn;
      integrations[group] = new HttpLambdaIntegration(`${pascal(group)}Integration`, fn.function, {
        // One invoke permission per function instead of one per route: the Lambda resource policy
        // and the stack's resource count stay small as routes grow. Only the routes integrated with
        // a function can reach it, so this allows nothing more.
        scopePermissionToRoute: false,
      });
    }
    this.functions = functions;

    for (const route of routes) {
      this.httpApi.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: integrations[route.group],
      });
    }

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
