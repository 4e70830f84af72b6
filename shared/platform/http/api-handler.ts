import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { authenticatePartner, authenticateProject } from '../auth/authenticate';
import { AppError, badRequest, payloadTooLarge } from '../core/errors';
import { callerOfSession, requireConsoleHeader } from '../auth/console-session-auth';
import { sessionTokenOf } from '../auth/console-session-cookie';
import { idempotencyCheck, idempotencyRecord } from './idempotency-middleware';
import { logLambdaContext } from '../core/lambda-handler';
import { logger } from '../core/logger';
import { reservedKeyMessage } from '../core/reserved-keys';
import type { EndpointGroup } from '../core/routes';
import type { ApiRoute } from './route';
import { parseRequest } from '../core/validate';
import type { Needs } from '../core/dependencies';
import type { ApiContext } from './api-context';
import type { ApiResult } from './api-types';
import { errorResponse } from './error-body';
import { PAYLOAD_LIMITS, eventBodyBytes } from './payload-limits';
import { inspectJson } from '../core/json-inspection';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

type Middleware = middy.MiddlewareObj<Event, Result, Error, ApiContext>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** Lowercases header names and finds the route's auth kind and idempotency handling in its module. */
const normalize = (served: readonly ApiRoute[]): Middleware => ({
  before: (request) => {
    const route = served.find((r) => r.key === request.event.routeKey);
    request.context.api = {
      auth: route?.auth ?? 'project',
      jsonBody: route?.auth !== 'public' || route.body !== undefined,
      idempotency: route?.idempotency,
      headers: Object.fromEntries(Object.entries(request.event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    };
  },
});

/**
 * Parses a JSON body; bodies need `Content-Type: application/json` (part 4.0). A body over the
 * documented limit is refused with 413 here, the same below Lambda's limit as it would be a byte
 * above it (where API Gateway answers before any function runs): shared/platform/http/payload-limits.ts.
 */
const jsonBody: Middleware = {
  before: (request) => {
    const { event } = request;
    if (event.body === undefined || event.body === null || event.body === '') return;
    const bytes = eventBodyBytes(event.body);
    if (bytes > PAYLOAD_LIMITS.requestBodyBytes) {
      throw payloadTooLarge(
        `Request body is ${bytes} bytes; the API takes at most ${PAYLOAD_LIMITS.requestBodyBytes} bytes (5 MB). Send larger attachments by url.`,
        'PAYLOAD_TOO_LARGE',
      );
    }
    const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    // Public routes (token pages) take any body as raw text: RFC 8058 one-click posts are form-encoded.
    // A public route that declares a body schema (the console's sign-in) takes JSON like the rest.
    if (request.context.api.auth === 'public' && !request.context.api.jsonBody) return void (request.context.api.body = text);
    const type = request.context.api.headers['content-type'] ?? '';
    if (!/^application\/([\w.-]+\+)?json\b/i.test(type)) throw badRequest('Content-Type must be application/json');
    try {
      request.context.api.body = JSON.parse(text);
    } catch {
      throw badRequest('Request body is not valid JSON');
    }
    // One walk of the body, its refusals in this order:
    const found = inspectJson(request.context.api.body, MAX_BODY_DEPTH);
    // recursive steps (the idempotency fingerprint, JSON.stringify, schema checks) would overflow the stack on a deeper body;
    if (found.tooDeep) throw badRequest(`Request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    // no field of the API can carry a NUL: mail cannot (RFC 5322 2.2), nor can a template or a name;
    if (found.hasNul) throw badRequest('Request body strings may not contain NUL characters (U+0000)');
    // every route at once: no object of any body (data, variables, filters, headers...) holds `__proto__`, `constructor` or `prototype`.
    if (found.reserved) throw badRequest(reservedKeyMessage(found.reserved));
  },
};

/** Deepest nesting of objects and arrays a body may have: no field of the API needs more, and DynamoDB stores at most 32. */
export const MAX_BODY_DEPTH = 64;

/** What the framework itself reads (keys, sessions, idempotency records), asked for on each request: tests replace services between requests. */
export type ApiServices = () => Needs<'db' | 'clock'>;

/** Resolves the key to a project or organization, or throws the 401s of part 5. */
const authenticate = (services: ApiServices): Middleware => ({
  before: async (request) => {
    const { auth, headers } = request.context.api;
    if (auth === 'public') return;
    const { db, clock } = services();
    // The console's session cookie stands in for a key only when no Authorization header is given,
    // and only on a request that carries the console's header (shared/tenancy/console/console-session.ts).
    const token = headers.authorization === undefined ? sessionTokenOf(request.event.cookies) : undefined;
    if (token !== undefined) {
      requireConsoleHeader(headers);
      request.context.api.caller = await callerOfSession(db, clock, auth, token);
    } else if (auth === 'project') request.context.api.caller = await authenticateProject(db, clock, headers.authorization);
    else request.context.api.caller = await authenticatePartner(db, headers.authorization);
  },
});

/**
 * Registered first but for the idempotency record, so that its onError runs after every other
 * step's and sees every error; the idempotency record then stores the response it made.
 */
const mapErrors: Middleware = {
  onError: (request) => {
    const requestId = request.context?.awsRequestId ?? request.event.requestContext?.requestId ?? 'local';
    if (!(request.error instanceof AppError)) {
      logger.error('Unhandled error', { requestId, routeKey: request.event.routeKey, error: request.error as Error });
    }
    const { status, body } = errorResponse(request.error, request.context.api?.auth ?? 'project', requestId);
    request.response = { statusCode: status, headers: JSON_HEADERS, body: JSON.stringify(body) };
  },
};

/**
 * Builds an endpoint group's Lambda handler: the middy stack in a fixed order (idempotency record,
 * errors, normalise, authenticate, parse: a caller without a valid key learns nothing about input
 * rules, then the idempotency check: only authenticated, parsed requests are replayed or claimed),
 * then the route picked by the route key, which runs only on a body and query its schemas accept.
 * `services` is the composition's (composition/services.ts): the platform builds none itself.
 */
export function apiHandler(group: EndpointGroup, served: readonly ApiRoute[], services: ApiServices) {
  if (served.length === 0) throw new Error(`Group ${group} serves no route`);
  const byKey = new Map(served.map((route) => [route.key, route]));

  return middy<Event, Result, Error, ApiContext>()
    .use(logLambdaContext<Event, Result, ApiContext>())
    .use(idempotencyRecord(services))
    .use(mapErrors)
    .use(normalize(served))
    .use(authenticate(services))
    .use(jsonBody)
    .use(idempotencyCheck(services))
    .handler(async (event, context): Promise<Result> => {
      const route = byKey.get(event.routeKey);
      if (!route) return { statusCode: 404, headers: JSON_HEADERS, body: JSON.stringify({ message: 'Not Found' }) };
      const result = await route.handle({
        // The one place a request is validated: no handler or service sees a raw body or query.
        body: route.body ? parseRequest(route.body, context.api.body, route.refuse) : context.api.body,
        query: route.query ? parseRequest(route.query, event.queryStringParameters ?? {}, route.refuse) : (event.queryStringParameters ?? {}),
        params: (event.pathParameters ?? {}) as Record<string, string>,
        headers: context.api.headers,
        cookies: event.cookies,
        caller: context.api.caller,
        requestId: context.awsRequestId ?? event.requestContext?.requestId ?? 'local',
        domainName: event.requestContext?.domainName,
      } as Parameters<ApiRoute['handle']>[0]);
      return toResult(result);
    });
}

/** The Lambda result of a route's answer. */
function toResult(result: ApiResult): Result {
  const cookies = result.cookies?.length ? { cookies: [...result.cookies] } : {};
  // A binary body (the tracking pixel) goes out base64-encoded, with the route's own content type.
  if (Buffer.isBuffer(result.body)) return { statusCode: result.status, headers: { ...result.headers }, body: result.body.toString('base64'), isBase64Encoded: true, ...cookies };
  // A route may answer an HTML page (public pages) or a CSV report: a string body with a text/html or text/csv type goes out as is.
  const text = typeof result.body === 'string' && /^text\/(html|csv)\b/i.test(result.headers?.['content-type'] ?? '');
  return { statusCode: result.status, headers: { ...JSON_HEADERS, ...result.headers }, body: text ? (result.body as string) : JSON.stringify(result.body), ...cookies };
}
