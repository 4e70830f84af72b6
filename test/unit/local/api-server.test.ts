import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { startApiServer } from '../../../local/api-server';
import { endpointGroups } from '../../../shared/platform/core/routes';

/** Every group answers with the event's path parameters, except `send`, which throws. */
const handlers = Object.fromEntries(
  Object.keys(endpointGroups).map((group) => [
    group,
    async (event: APIGatewayProxyEventV2) => {
      if (group === 'send') throw new Error('handler failure');
      return { statusCode: 200, body: JSON.stringify(event.pathParameters ?? {}) };
    },
  ]),
) as unknown as Parameters<typeof startApiServer>[0]['handlers'];

let server: Awaited<ReturnType<typeof startApiServer>>;
let port: number;
beforeAll(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  server = await startApiServer({ port: 0, handlers });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server.stop();
  jest.restoreAllMocks();
});

/** Sends `request` as raw bytes and returns the status line's code (0 when the socket closes without one). */
function raw(request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => reject(new Error('no answer')));
  });
}

/** The server still routes an ordinary request. */
async function stillServes(): Promise<void> {
  const res = await fetch(`${server.url}/v1/activity/abc`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ id: 'abc' });
}

describe('the local API server and malformed requests', () => {
  test.each(['/v1/activity/%E0%A4%A', '/v1/activity/%', '/v1/suppressions/%F0%9F', '/v1/partner/projects/%E0/domains/x.com'])(
    'a path parameter that does not decode (%s) answers 400, and the server keeps serving',
    async (path) => {
      expect(await raw(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`)).toBe(400);
      await stillServes();
    },
  );

  test('a path parameter is decoded once, as API Gateway does', async () => {
    const res = await fetch(`${server.url}/v1/suppressions/a%2540b.example.com`);
    expect(await res.json()).toEqual({ email: 'a%40b.example.com' });
  });

  test('headers over Node\'s limit answer 431, and the server keeps serving', async () => {
    expect(await raw(`GET /v1/activity/x HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`)).toBe(431);
    await stillServes();
  });

  test.each([
    ['a broken request line', 'NOT-HTTP\r\n\r\n'],
    ['a header without a colon', 'GET /v1/activity/x HTTP/1.1\r\nHost localhost\r\n\r\n'],
    ['a NUL in the request target', 'GET /v1/activity/a\u0000b HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['an unparseable request target', 'GET http://[ HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ])('%s answers 400, and the server keeps serving', async (_name, request) => {
    expect(await raw(request)).toBe(400);
    await stillServes();
  });

  test('a body over API Gateway\'s 10 MB answers 413, and the server keeps serving', async () => {
    const res = await fetch(`${server.url}/v1/templates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20) });
    expect(res.status).toBe(413);
    await stillServes();
  });

  test("a request whose event is over Lambda's 6 MB invoke payload never reaches the function: 500, as API Gateway answers", async () => {
    const calls: string[] = [];
    const spying = await startApiServer({
      port: 0,
      handlers: new Proxy(handlers, { get: (target, group: string) => async (event: APIGatewayProxyEventV2) => (calls.push(group), (target as any)[group](event)) }),
    });
    try {
      // 6 MB of body is under API Gateway's 10 MB, but the event around it is over Lambda's 6 MB.
      const res = await fetch(`${spying.url}/v1/templates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(6 * 1024 * 1024, 0x20) });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ message: 'Internal Server Error' });
      expect(calls).toEqual([]);
      // Just under the limit, the function runs.
      const fits = await fetch(`${spying.url}/v1/templates`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(6 * 1024 * 1024 - 4096, 0x20) });
      expect(fits.status).toBe(200);
      expect(calls).toEqual(['templates']);
    } finally {
      await spying.stop();
    }
  });

  test('a handler that throws answers 500, and the server keeps serving', async () => {
    const res = await fetch(`${server.url}/v1/send-email`, { method: 'POST' });
    expect(res.status).toBe(500);
    await stillServes();
  });

  test('an unknown route is a 404', async () => {
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
  });
});

/** Holds the event loop, as a loaded machine or a long synchronous import does. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs
  }
}

describe('the local API server and kept-alive connections (issue 19: the fuzz suite\'s "fetch failed")', () => {
  test('a kept-alive connection reused by fetch survives an event-loop stall past 5 s of idleness', async () => {
    const first = await fetch(`${server.url}/v1/activity/a`);
    expect(first.status).toBe(200);
    await first.text();
    // Idle for less than fetch's own reuse window (the server's Keep-Alive hint less 2 s, or 4 s).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // Right after fetch writes the request on the reused socket, the loop stalls before the server reads it.
    const stallAfterWrite = () => stall(3_500);
    diagnostics.subscribe('undici:client:sendHeaders', stallAfterWrite);
    let res: Response;
    try {
      res = await fetch(`${server.url}/v1/activity/b`);
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', stallAfterWrite);
    }
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'b' });
  }, 20_000);
});
