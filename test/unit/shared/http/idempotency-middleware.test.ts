import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ProjectCaller } from '../../../../shared/platform/auth/authenticate';
import { notFound, unauthorized } from '../../../../shared/platform/core/errors';
import type { ApiResult, RouteFunction } from '../../../../shared/platform/http/api-types';
import { assessRecord, epochSeconds, type IdempotencyRecord } from '../../../../shared/platform/idempotency/idempotency-record';
import type { EndpointGroup } from '../../../../shared/platform/core/routes';
import { routeTable as routes } from '../../../../functions/route-table';

// The real middy stack of apiHandler, with the key lookup and the record store replaced: the store
// below keeps records in memory under the same rule as the conditional put (assessRecord).
jest.mock('../../../../composition/services', () => ({ services: () => ({ db: {}, clock: { now: () => new Date('2025-03-01T12:00:00Z') } }) }));
jest.mock('../../../../shared/platform/auth/authenticate', () => ({ authenticateProject: jest.fn(), authenticatePartner: jest.fn() }));
jest.mock('../../../../shared/platform/idempotency/idempotency-repository', () => ({
  claimIdempotencyKey: jest.fn(),
  completeIdempotencyKey: jest.fn(),
  releaseIdempotencyKey: jest.fn(),
}));

import { authenticateProject } from '../../../../shared/platform/auth/authenticate';
import { services } from '../../../../composition/services';
import { apiHandler } from '../../../../shared/platform/http/api-handler';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../../../../shared/platform/idempotency/idempotency-repository';

const claim = claimIdempotencyKey as jest.MockedFunction<typeof claimIdempotencyKey>;
const complete = completeIdempotencyKey as jest.MockedFunction<typeof completeIdempotencyKey>;
const release = releaseIdempotencyKey as jest.MockedFunction<typeof releaseIdempotencyKey>;
const authenticate = authenticateProject as jest.MockedFunction<typeof authenticateProject>;

/** Keys the fake authentication knows: project and mode per bearer token. */
const CALLERS: Record<string, { projectId: string; mode: 'live' | 'test' }> = {
  'Bearer sk_live_a': { projectId: 'project-a', mode: 'live' },
  'Bearer sk_test_a': { projectId: 'project-a', mode: 'test' },
  'Bearer sk_live_b': { projectId: 'project-b', mode: 'live' },
};

let records: Map<string, IdempotencyRecord>;
const at = (c: { projectId: string; keyHash: string }) => `${c.projectId}#${c.keyHash}`;

beforeEach(() => {
  jest.resetAllMocks();
  records = new Map();
  authenticate.mockImplementation(async (_db, _clock, authorization) => {
    const known = CALLERS[authorization ?? ''];
    if (!known) throw unauthorized('Invalid API key');
    return { kind: 'project', mode: known.mode, project: { id: known.projectId } } as ProjectCaller;
  });
  claim.mockImplementation(async (_db, { claim: c, fingerprint, now }) => {
    const existing = records.get(at(c));
    if (assessRecord(existing, fingerprint, epochSeconds(now)) !== 'free') return { claimed: false, existing };
    records.set(at(c), { status: 'in_progress', fingerprint, token: c.token, lease_until: epochSeconds(now) + 60, ttl: epochSeconds(now) + 86_400 });
    return { claimed: true };
  });
  complete.mockImplementation(async (_db, { claim: c, response }) => {
    const held = records.get(at(c));
    if (held?.token !== c.token) return false;
    records.set(at(c), { ...held, status: 'completed', lease_until: undefined, response });
    return true;
  });
  release.mockImplementation(async (_db, c) => {
    if (records.get(at(c))?.token === c.token) records.delete(at(c));
  });
});

/** A handler for `group` whose routes all run `route` (on the body as sent: no schema). */
function handlerFor(group: EndpointGroup, route: RouteFunction) {
  const served = routes.filter((r) => r.group === group).map((r) => ({ ...r, body: undefined, query: undefined, access: { table: 'read' as const }, handle: route }));
  return apiHandler(group, served as never, services) as unknown as (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;
}

let n = 0;
/** Calls `handler` as API Gateway would. */
function call(
  handler: ReturnType<typeof handlerFor>,
  key: string,
  options: { idempotencyKey?: string; body?: unknown; rawBody?: string; authorization?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: options.authorization ?? 'Bearer sk_live_a' };
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  const event = {
    version: '2.0',
    routeKey: key,
    rawPath: key.split(' ')[1],
    rawQueryString: '',
    headers,
    requestContext: { requestId: `req-${++n}`, http: { method: key.split(' ')[0], path: key.split(' ')[1] } },
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  return handler(event, { awsRequestId: `req-${n}` } as Context);
}

const SEND = 'POST /send-email';
const BODY = { recipient: 'a@example.com', sender: 'hello@example.com', subject: 'Hi', html: '<p>Hi</p>' };

/** A route that answers a fresh id each time it runs, so a replay is told from a second run. */
function counting(answer: (count: number) => ApiResult = (count) => ({ status: 200, body: { email_id: `email-${count}` } })) {
  let count = 0;
  return jest.fn(async (): Promise<ApiResult> => answer(++count));
}

describe('the v1 single sends honour the header (an extension of part 8)', () => {
  test.each(['POST /v1/send-email', 'POST /v1/send-template-email'])('%s with the header: the key is claimed and the route runs', async (key) => {
    const route = counting();
    const res = await call(handlerFor('send', route), key, { idempotencyKey: 'k-1', body: BODY });
    expect(res.statusCode).toBe(200);
    expect(route).toHaveBeenCalledTimes(1);
    expect(claim).toHaveBeenCalledTimes(1);
  });
});

describe('routes without idempotency handling', () => {
  test('ignore the header: every request runs, nothing is stored', async () => {
    const route = counting();
    const handler = handlerFor('templates', route);
    await call(handler, 'POST /v1/templates', { idempotencyKey: 'k-1', body: { name: 't' } });
    await call(handler, 'POST /v1/templates', { idempotencyKey: 'k-1', body: { name: 't' } });
    expect(route).toHaveBeenCalledTimes(2);
    expect(claim).not.toHaveBeenCalled();
  });
});

describe('header validation', () => {
  test.each([
    ['empty', ''],
    ['257 characters', 'k'.repeat(257)],
  ])('%s: 400, nothing claimed, the route does not run', async (_name, value) => {
    const route = counting();
    const res = await call(handlerFor('send', route), SEND, { idempotencyKey: value, body: BODY });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body ?? '')).toEqual({ error: 'Idempotency-Key must be 1 to 256 characters' });
    expect(route).not.toHaveBeenCalled();
    expect(claim).not.toHaveBeenCalled();
  });

  test('256 characters are accepted', async () => {
    const res = await call(handlerFor('send', counting()), SEND, { idempotencyKey: 'k'.repeat(256), body: BODY });
    expect(res.statusCode).toBe(200);
  });
});

describe('after authentication and parsing', () => {
  test('a bad key is a 401 that is not cached', async () => {
    const route = counting();
    const handler = handlerFor('send', route);
    const first = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY, authorization: 'Bearer sk_live_unknown' });
    expect(first.statusCode).toBe(401);
    expect(claim).not.toHaveBeenCalled();
    const second = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(second.statusCode).toBe(200);
    expect(second.headers?.['idempotency-replayed']).toBeUndefined();
  });

  test('a body that is not JSON is a 400 that is not cached', async () => {
    const res = await call(handlerFor('send', counting()), SEND, { idempotencyKey: 'k-1', rawBody: '{oops' });
    expect(res.statusCode).toBe(400);
    expect(claim).not.toHaveBeenCalled();
  });
});

describe('replay (part 4.3)', () => {
  test('a repeat gets the stored status, body and headers with Idempotency-Replayed: true; the route ran once', async () => {
    const route = counting(() => ({ status: 201, body: { email_id: 'email-1' }, headers: { 'x-extra': 'yes' } }));
    const handler = handlerFor('send', route);
    const first = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    const again = await call(handler, SEND, { idempotencyKey: 'k-1', body: { html: '<p>Hi</p>', subject: 'Hi', sender: 'hello@example.com', recipient: 'a@example.com' } });
    expect(route).toHaveBeenCalledTimes(1);
    expect(first.headers?.['idempotency-replayed']).toBeUndefined();
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers).toEqual({ ...first.headers, 'idempotency-replayed': 'true' });
  });

  test('a 4xx thrown by the route is stored as the client saw it and replayed', async () => {
    const route = jest.fn(async (): Promise<ApiResult> => {
      throw notFound('Template not found with ID 42');
    });
    const handler = handlerFor('send', route);
    const first = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(first.statusCode).toBe(404);
    expect(complete).toHaveBeenCalledWith({}, expect.objectContaining({ response: { status: 404, headers: first.headers, body: first.body } }));
    const again = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(again.statusCode).toBe(404);
    expect(JSON.parse(again.body ?? '')).toEqual({ error: 'Template not found with ID 42' });
    expect(again.headers?.['idempotency-replayed']).toBe('true');
    expect(route).toHaveBeenCalledTimes(1);
  });

  test('the same key in another project is another key', async () => {
    const route = counting();
    const handler = handlerFor('send', route);
    const a = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    const b = await call(handler, SEND, { idempotencyKey: 'k-1', body: { ...BODY, subject: 'Other' }, authorization: 'Bearer sk_live_b' });
    expect(b.statusCode).toBe(200);
    expect(b.headers?.['idempotency-replayed']).toBeUndefined();
    expect(b.body).not.toBe(a.body);
    expect(route).toHaveBeenCalledTimes(2);
  });
});

describe('5xx answers are not cached', () => {
  test('an unexpected error releases the key: the client gets the generic 500, a retry runs again', async () => {
    let fail = true;
    const route = jest.fn(async (): Promise<ApiResult> => {
      if (fail) throw new Error('queue down');
      return { status: 200, body: { email_id: 'email-1' } };
    });
    const handler = handlerFor('send', route);
    const first = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(first.statusCode).toBe(500);
    expect(JSON.parse(first.body ?? '').error).toBe('Internal server error');
    expect(release).toHaveBeenCalledTimes(1);
    expect(complete).not.toHaveBeenCalled();
    fail = false;
    const retry = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers?.['idempotency-replayed']).toBeUndefined();
    expect(route).toHaveBeenCalledTimes(2);
  });

  test('a 5xx the route answers itself releases the key too', async () => {
    const route = counting(() => ({ status: 502, body: { error: 'Failed to process request' } }));
    const handler = handlerFor('send', route);
    expect((await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY })).statusCode).toBe(502);
    expect((await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY })).statusCode).toBe(502);
    expect(route).toHaveBeenCalledTimes(2);
    expect(complete).not.toHaveBeenCalled();
  });
});

describe('conflicts', () => {
  test('the same key with another body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const handler = handlerFor('send', counting());
    await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    const res = await call(handler, SEND, { idempotencyKey: 'k-1', body: { ...BODY, subject: 'Changed' } });
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body ?? '')).toEqual({ error: 'Idempotency-Key was already used with a different request', code: 'IDEMPOTENCY_KEY_REUSED' });
  });

  test('the same key and body with a test key after a live key: 422, never the live answer', async () => {
    const handler = handlerFor('send', counting());
    await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    const res = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY, authorization: 'Bearer sk_test_a' });
    expect(res.statusCode).toBe(422);
  });

  test('a request while the first is still running: 409 IDEMPOTENCY_KEY_IN_PROGRESS; the first then completes alone', async () => {
    let finish: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const route = jest.fn(async (): Promise<ApiResult> => {
      await gate;
      return { status: 200, body: { email_id: 'email-1' } };
    });
    const handler = handlerFor('send', route);
    const first = call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    await new Promise((r) => setImmediate(r));
    const second = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(second.statusCode).toBe(409);
    expect(JSON.parse(second.body ?? '')).toEqual({
      error: 'A request with this Idempotency-Key is still in progress; retry shortly',
      code: 'IDEMPOTENCY_KEY_IN_PROGRESS',
    });
    finish();
    expect((await first).statusCode).toBe(200);
    expect(route).toHaveBeenCalledTimes(1);
    const third = await call(handler, SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(third.headers?.['idempotency-replayed']).toBe('true');
  });
});

describe('dry runs', () => {
  test('are never claimed nor stored: each one runs', async () => {
    const route = counting();
    const handler = handlerFor('send', route);
    await call(handler, SEND, { idempotencyKey: 'k-1', body: { ...BODY, dry_run: true } });
    const again = await call(handler, SEND, { idempotencyKey: 'k-1', body: { ...BODY, dry_run: true } });
    expect(again.headers?.['idempotency-replayed']).toBeUndefined();
    expect(route).toHaveBeenCalledTimes(2);
    expect(claim).not.toHaveBeenCalled();
  });

  test('still need a valid header', async () => {
    const res = await call(handlerFor('send', counting()), SEND, { idempotencyKey: '', body: { ...BODY, dry_run: true } });
    expect(res.statusCode).toBe(400);
  });
});

describe('when the answer cannot be stored', () => {
  test('the client still gets the answer', async () => {
    complete.mockRejectedValue(new Error('DynamoDB unavailable'));
    const res = await call(handlerFor('send', counting()), SEND, { idempotencyKey: 'k-1', body: BODY });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body ?? '')).toEqual({ email_id: 'email-1' });
  });
});
