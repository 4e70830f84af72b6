import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from './logger';

/**
 * The middy step that puts the invocation's Lambda context (request id, function name, cold start)
 * on every log line written while the invocation runs; keys appended during it are dropped after.
 */
export function logLambdaContext<TEvent, TResult, TContext extends Context = Context>(): middy.MiddlewareObj<TEvent, TResult, Error, TContext> {
  return injectLambdaContext(logger, { resetKeys: true }) as middy.MiddlewareObj<TEvent, TResult, Error, TContext>;
}

/**
 * A worker's or a scheduled job's Lambda entry point: the handler as it is, with the Lambda context
 * on its log lines. The context is optional for callers other than Lambda (tests); middy then
 * gives the handler an empty one. A handler that reads no event (a scheduled job) types it `void`,
 * so it may be called with none.
 */
export function lambdaHandler<TEvent = void, TResult = unknown>(handler: (event: TEvent, context: Context) => Promise<TResult>) {
  // No early timeout: a worker runs until Lambda's own timeout, as it did before middy wrapped it.
  const wrapped = middy<TEvent, TResult>({ timeoutEarlyInMillis: 0 })
    .use(logLambdaContext<TEvent, TResult>())
    .handler(handler);
  return (event: TEvent, context?: Context): Promise<TResult> => wrapped(event, context as Context);
}
