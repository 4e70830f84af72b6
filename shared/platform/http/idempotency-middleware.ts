import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Needs } from '../core/dependencies';
import { badRequest } from '../core/errors';
import type { ApiContext } from './api-context';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_MESSAGES, REPLAYED_HEADER, checkIdempotencyKey } from '../idempotency/idempotency-key';
import type { StoredResponse } from '../idempotency/idempotency-record';
import { finishIdempotentRequest, startIdempotentRequest } from '../idempotency/idempotency-service';
import { isDryRun, requestFingerprint } from '../idempotency/request-fingerprint';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

type Middleware = middy.MiddlewareObj<Event, Result, Error, ApiContext>;
type Request = middy.Request<Event, Result, Error, ApiContext>;
/** The services the idempotency steps read, asked for on each request (composition/services.ts passes its own). */
type ServicesOf = () => Needs<'db' | 'clock'>;

/**
 * Runs after authentication and parsing, just before the route: refuses the header where the
 * route cannot honour it, validates it, lets dry runs through untouched, and then either replays
 * the stored answer (an early response: the route does not run) or claims the key.
 */
export const idempotencyCheck = (services: ServicesOf): Middleware => ({
  before: async (request) => {
    const api = request.context.api;
    const value = api.headers[IDEMPOTENCY_HEADER];
    if (!api.idempotency || value === undefined) return;
    // A client must not believe it is protected where it is not.
    if (api.idempotency === 'refused') throw badRequest(IDEMPOTENCY_MESSAGES.refused);
    const key = checkIdempotencyKey(value);
    // A dry run queues, logs and writes nothing (4.5), so it neither reads nor stores a record.
    if (isDryRun(api.body)) return;
    const caller = api.caller;
    if (caller?.kind !== 'project') throw new Error('Idempotency-Key is only for project routes');
    const fingerprint = requestFingerprint({ routeKey: request.event.routeKey, mode: caller.mode, body: api.body });
    const start = await startIdempotentRequest(services(), { projectId: caller.project.id, key, fingerprint });
    if (start.kind === 'replay') return replayed(start.response);
    api.idempotencyClaim = start.claim;
  },
});

/**
 * Stores the answer of a request that holds its key, or releases the key after a 5xx. Registered
 * before the error mapper so that its onError runs after it: it sees the final answer, the mapped
 * response of a route's AppError included, and there is one error mapping only.
 */
export const idempotencyRecord = (services: ServicesOf): Middleware => {
  const settle = (request: Request) => settleClaim(services, request);
  return { after: settle, onError: settle };
};

async function settleClaim(services: ServicesOf, request: Request): Promise<void> {
  const claim = request.context.api?.idempotencyClaim;
  if (!claim) return;
  // Once only: a throwing `after` step would bring this back through onError.
  request.context.api.idempotencyClaim = undefined;
  await finishIdempotentRequest(services(), claim, toStored(request.response));
}

/** The answer as it went out, in the stored form. */
function toStored(response: Result | null | undefined): StoredResponse | undefined {
  if (!response) return undefined;
  const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, value]) => [name, String(value)]));
  return { status: response.statusCode ?? 200, headers, body: response.body ?? '', ...(response.isBase64Encoded ? { base64: true } : {}) };
}

/** A stored answer sent again, marked as a replay. */
function replayed(stored: StoredResponse): Result {
  return {
    statusCode: stored.status,
    headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' },
    body: stored.body,
    ...(stored.base64 ? { isBase64Encoded: true } : {}),
  };
}
