import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { DEFAULT_API_THROTTLES } from '../../lib/api';
import { EmailApiStack } from '../../lib/email-api-stack';
import { routeKey } from '../../shared/platform/core/routes';
import { routeTable as routes } from '../../functions/route-table';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about the stage's settings, not code.
const synth = (context: Record<string, unknown> = {}) =>
  Template.fromStack(new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Throttled'));

/** The one API Gateway v2 stage of the stack. */
function stageOf(template: Template): Record<string, any> {
  const stages = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'));
  expect(stages).toHaveLength(1);
  return stages[0] as Record<string, any>;
}

const PUBLIC_ROUTES = routes.filter((r) => r.auth === 'public').map(routeKey);

describe('API Gateway throttling', () => {
  test('the stage has a default throttle for every route', () => {
    expect(stageOf(synth()).Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: DEFAULT_API_THROTTLES.api.rateLimit,
      ThrottlingBurstLimit: DEFAULT_API_THROTTLES.api.burstLimit,
    });
  });

  test('every public token route has its own, tighter limit; the verify button (an SES call) the tightest', () => {
    const settings = stageOf(synth()).Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    expect(Object.keys(settings).sort()).toEqual([...PUBLIC_ROUTES].sort());
    expect(PUBLIC_ROUTES).toEqual(expect.arrayContaining(['GET /verify/{token}', 'POST /verify/{token}', 'GET /senders/confirm/{token}', 'POST /senders/confirm/{token}', 'GET /t/o/{token}', 'GET /t/c/{token}', 'GET /u/{token}', 'POST /u/{token}', 'GET /v/{token}']));
    expect(settings['POST /verify/{token}']).toEqual({ ThrottlingRateLimit: DEFAULT_API_THROTTLES.verify.rateLimit, ThrottlingBurstLimit: DEFAULT_API_THROTTLES.verify.burstLimit });
    expect(settings['POST /u/{token}']).toEqual({ ThrottlingRateLimit: DEFAULT_API_THROTTLES.links.rateLimit, ThrottlingBurstLimit: DEFAULT_API_THROTTLES.links.burstLimit });
    expect(settings['GET /t/c/{token}']).toEqual({ ThrottlingRateLimit: DEFAULT_API_THROTTLES.tracking.rateLimit, ThrottlingBurstLimit: DEFAULT_API_THROTTLES.tracking.burstLimit });
    for (const s of Object.values(settings)) expect(s.ThrottlingRateLimit).toBeLessThan(DEFAULT_API_THROTTLES.api.rateLimit);
  });

  test('the stage is created after the routes its settings name', () => {
    const template = synth();
    const stage = stageOf(template);
    const routeIds = Object.keys(template.findResources('AWS::ApiGatewayV2::Route'));
    expect(routeIds).toHaveLength(routes.length);
    const publicRouteIds = Object.entries(template.findResources('AWS::ApiGatewayV2::Route'))
      .filter(([, r]) => PUBLIC_ROUTES.includes(r.Properties.RouteKey))
      .map(([id]) => id);
    expect(publicRouteIds).toHaveLength(PUBLIC_ROUTES.length);
    expect(stage.DependsOn).toEqual(expect.arrayContaining(publicRouteIds));
  });

  test('CDK context changes each limit (`cdk deploy -c apiRateLimit=50 -c verifyBurstLimit=3`)', () => {
    const stage = stageOf(synth({ apiRateLimit: '50', apiBurstLimit: '80', verifyRateLimit: '0.5', verifyBurstLimit: '3', trackingRateLimit: 1000 }));
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 80 });
    expect(stage.Properties.RouteSettings['POST /verify/{token}']).toEqual({ ThrottlingRateLimit: 0.5, ThrottlingBurstLimit: 3 });
    expect(stage.Properties.RouteSettings['GET /t/o/{token}'].ThrottlingRateLimit).toBe(1000);
    expect(stage.Properties.RouteSettings['GET /u/{token}'].ThrottlingRateLimit).toBe(DEFAULT_API_THROTTLES.links.rateLimit);
  });

  test.each([
    [{ apiRateLimit: 'lots' }, /apiRateLimit must be a number above 0/],
    [{ verifyRateLimit: '0' }, /verifyRateLimit must be a number above 0/],
    [{ linksBurstLimit: '2.5' }, /linksBurstLimit must be a whole number above 0/],
  ])('a bad context value fails the synth: %j', (context, message) => {
    expect(() => synth(context)).toThrow(message);
  });
});
