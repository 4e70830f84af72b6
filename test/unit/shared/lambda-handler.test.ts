import type { APIGatewayProxyEventV2, SQSEvent } from 'aws-lambda';
import { lambdaContext } from '../../../local/lambda-context';
import { useServiceEnvironment } from '../support/service-environment';
import { fakeRoutes } from '../support/fake-routes';

useServiceEnvironment({ TOKEN_SECRET: 'unit-logging-secret-0123456789', POWERTOOLS_LOG_LEVEL: 'INFO' });

// Loaded afresh once the environment asks for INFO: each invocation starts at the level the logger
// was built with (tests otherwise run SILENT).
let logger: typeof import('../../../shared/platform/core/logger').logger;
let apiHandler: typeof import('../../../shared/platform/http/api-handler').apiHandler;
let lambdaHandler: typeof import('../../../shared/platform/core/lambda-handler').lambdaHandler;
let sqsBatchHandler: typeof import('../../../shared/platform/queue-worker/batch-handler').sqsBatchHandler;
beforeAll(async () => {
  jest.resetModules();
  ({ logger } = await import('../../../shared/platform/core/logger'));
  ({ apiHandler } = await import('../../../shared/platform/http/api-handler'));
  ({ lambdaHandler } = await import('../../../shared/platform/core/lambda-handler'));
  ({ sqsBatchHandler } = await import('../../../shared/platform/queue-worker/batch-handler'));
});

/** The JSON log lines written while `run` runs (read where Powertools prints them, as its own tests do). */
async function logLines(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const written: string[] = [];
  const out = (logger as unknown as { console: Console }).console;
  const capture: Console['info'] = (line) => void written.push(String(line));
  for (const method of ['debug', 'info', 'warn', 'error'] as const) jest.spyOn(out, method).mockImplementation(capture);
  try {
    await run();
  } finally {
    jest.restoreAllMocks();
  }
  return written.map((line) => JSON.parse(line));
}

/** The services of a group of public routes: the framework reads none (no key to look up). */
const publicOnly = (): never => {
  throw new Error('a public route reads no services');
};

const sqsEvent: SQSEvent = { Records: [{ messageId: 'm-1', body: '{}' } as SQSEvent['Records'][number]] };

const apiEvent = (routeKey: string) =>
  ({ version: '2.0', routeKey, rawPath: '/', headers: {}, pathParameters: { token: 't' }, requestContext: { requestId: 'apigw-1' } }) as unknown as APIGatewayProxyEventV2;

describe('every log line of an invocation carries its Lambda request id', () => {
  test('a line logged inside an API route', async () => {
    const handler = apiHandler('tracking', fakeRoutes('public', {
      'GET /t/o/{token}': async () => {
        logger.info('inside the route');
        return { status: 200, body: {} };
      },
      'GET /t/c/{token}': async () => ({ status: 200, body: {} }),
    }), publicOnly);
    const context = lambdaContext('mailroom-tracking');
    const lines = await logLines(() => handler(apiEvent('GET /t/o/{token}'), context as never));
    expect(lines).toEqual([expect.objectContaining({ message: 'inside the route', function_request_id: context.awsRequestId, function_name: 'mailroom-tracking' })]);
  });

  test('the 500 logged for an unexpected error in an API route', async () => {
    const handler = apiHandler('tracking', fakeRoutes('public', {
      'GET /t/o/{token}': async () => ({ status: 200, body: {} }),
      'GET /t/c/{token}': async () => {
        throw new Error('bug');
      },
    }), publicOnly);
    const context = lambdaContext('mailroom-tracking');
    const lines = await logLines(() => handler(apiEvent('GET /t/c/{token}'), context as never));
    expect(lines).toEqual([expect.objectContaining({ message: 'Unhandled error', function_request_id: context.awsRequestId })]);
  });

  test('a line logged while a worker processes a record, and its failure line', async () => {
    const handler = sqsBatchHandler(async () => {
      logger.info('processing');
      throw new Error('cannot');
    });
    const context = lambdaContext('mailroom-send-worker');
    const lines = await logLines(() => handler(sqsEvent, context));
    expect(lines.map((l) => [l.message, l.function_request_id])).toEqual([
      ['processing', context.awsRequestId],
      ['Record failed; it will be retried', context.awsRequestId],
    ]);
  });

  test('a line logged by a scheduled job; the next invocation has its own id', async () => {
    const handler = lambdaHandler(async () => logger.info('sweeping'));
    const first = lambdaContext('mailroom-dns-sweep');
    const second = lambdaContext('mailroom-dns-sweep');
    const lines = await logLines(async () => {
      await handler(undefined, first);
      await handler(undefined, second);
    });
    expect(lines.map((l) => l.function_request_id)).toEqual([first.awsRequestId, second.awsRequestId]);
  });
});
