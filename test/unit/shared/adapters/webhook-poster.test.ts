import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWebhookPoster, MAX_RESPONSE_BYTES, RESPONSE_HEAD_BYTES, WEBHOOK_TIMEOUT_MS } from '../../../../shared/platform/adapters/webhook-poster';

interface Received {
  url: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('HttpWebhookPoster (against loopback servers)', () => {
  const received: Received[] = [];
  let connections = 0;
  let server: http.Server;
  let base: string;
  const open = new Set<http.ServerResponse>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ url: req.url ?? '', method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.on('error', () => undefined);
        switch (req.url) {
          case '/ok':
            res.writeHead(204).end();
            return;
          case '/accepted':
            res.writeHead(202, { 'content-type': 'text/plain' }).end('thanks');
            return;
          case '/fail':
            res.writeHead(500).end('boom');
            return;
          case '/redirect':
            res.writeHead(302, { location: '/ok' }).end();
            return;
          case '/hang':
            open.add(res);
            return; // never answers
          case '/slow-body':
            open.add(res);
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.write('a little, then nothing');
            return;
          case '/huge': {
            // Writes up to 32 MB, as fast as the socket takes it, until the client goes away.
            res.writeHead(200, { 'content-type': 'application/octet-stream' });
            const chunk = Buffer.alloc(64 * 1024, 120);
            let written = 0;
            const pump = () => {
              while (written < 32 * 1024 * 1024 && !res.destroyed) {
                written += chunk.length;
                if (!res.write(chunk)) return void res.once('drain', pump);
              }
              res.end();
            };
            pump();
            return;
          }
          default:
            res.writeHead(404).end();
        }
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
  });

  const poster = (options: Partial<ConstructorParameters<typeof HttpWebhookPoster>[0]> = {}) =>
    new HttpWebhookPoster({ allowLoopback: true, timeoutMs: 1_000, ...options });
  const BODY = '{"event":"email.send","data":{"activity_id":"a"}}';

  test('defaults: 10 s for the whole attempt, 64 KB of response', () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(10_000);
    expect(MAX_RESPONSE_BYTES).toBe(65_536);
  });

  test('a 2xx answer is ok; the body and headers are POSTed as given, with a content length', async () => {
    await expect(poster().post(`${base}/ok`, BODY, { 'content-type': 'application/json', 'x-svc-environment': 'live' })).resolves.toMatchObject({ ok: true, status: 204 });
    await expect(poster().post(`${base}/accepted`, BODY, {})).resolves.toMatchObject({ ok: true, status: 202 });
    expect(received[0]).toMatchObject({ method: 'POST', url: '/ok', body: BODY });
    expect(received[0].headers).toMatchObject({ 'content-type': 'application/json', 'x-svc-environment': 'live', 'content-length': String(Buffer.byteLength(BODY)) });
  });

  test('a 500 is not ok, with its status', async () => {
    await expect(poster().post(`${base}/fail`, BODY, {})).resolves.toEqual(expect.objectContaining({ ok: false, status: 500, error: 'HTTP 500' }));
  });

  test('a redirect is not followed and not ok', async () => {
    const result = await poster().post(`${base}/redirect`, BODY, {});
    expect(result).toMatchObject({ ok: false, status: 302 });
    expect(result.error).toMatch(/redirect/i);
    expect(received.map((r) => r.url)).toEqual(['/redirect']);
  });

  test('a receiver that never answers times out after the deadline', async () => {
    const started = Date.now();
    const result = await poster({ timeoutMs: 300 }).post(`${base}/hang`, BODY, {});
    expect(result.ok).toBe(false);
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/timed out/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('a receiver that sent its 2xx status but trickles its body has answered: ok at the deadline', async () => {
    const started = Date.now();
    await expect(poster({ timeoutMs: 300 }).post(`${base}/slow-body`, BODY, {})).resolves.toMatchObject({ ok: true, status: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('a huge response is cut at 64 KB: the rest is never read', async () => {
    const started = Date.now();
    const result = await poster({ timeoutMs: 5_000 }).post(`${base}/huge`, BODY, {});
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.responseBytes).toBeGreaterThanOrEqual(MAX_RESPONSE_BYTES);
    // At most one socket read past the cap (reads are at most 64 KB).
    expect(result.responseBytes).toBeLessThan(2 * MAX_RESPONSE_BYTES);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('the first 512 bytes of the answer come back for the delivery log, and no more', async () => {
    await expect(poster({}).post(`${base}/fail`, BODY, {})).resolves.toMatchObject({ ok: false, status: 500, responseHead: Buffer.from('boom') });
    const huge = await poster({ timeoutMs: 5_000 }).post(`${base}/huge`, BODY, {});
    expect(huge.responseHead).toEqual(Buffer.alloc(RESPONSE_HEAD_BYTES, 120));
    expect(RESPONSE_HEAD_BYTES).toBe(512);
  });

  test('a smaller cap applies too', async () => {
    const result = await poster({ maxResponseBytes: 1_000 }).post(`${base}/huge`, BODY, {});
    expect(result.responseBytes).toBeLessThan(1_000 + MAX_RESPONSE_BYTES);
  });

  test('a connection refused is not ok, with the error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await poster().post(`http://127.0.0.1:${port}/`, BODY, {});
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/ECONNREFUSED/);
  });

  describe('private addresses, when not allowed', () => {
    const strict = () => new HttpWebhookPoster({ allowLoopback: false, timeoutMs: 1_000 });

    test.each(['127.0.0.1', '[::1]', '10.1.2.3', '169.254.169.254', '192.168.0.10', '[::ffff:127.0.0.1]', '0x7f.1'])(
      'a literal %s in the URL is refused without connecting',
      async (host) => {
        const before = connections;
        const url = host.startsWith('10.') || host.startsWith('169.') || host.startsWith('192.') ? `http://${host}/hook` : `http://${host}:${new URL(base).port}/ok`;
        const result = await strict().post(url, BODY, {});
        expect(result.ok).toBe(false);
        expect(result.error).toMatch(/private address/);
        expect(connections).toBe(before);
      },
    );

    test('a host name resolving to loopback is refused at connect time', async () => {
      const before = connections;
      const result = await strict().post(`http://localhost:${new URL(base).port}/ok`, BODY, {});
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/private address/);
      expect(connections).toBe(before);
      expect(received).toEqual([]);
    });

    test('the same loopback URL is reached when loopback is allowed', async () => {
      await expect(poster().post(`http://localhost:${new URL(base).port}/ok`, BODY, {})).resolves.toMatchObject({ ok: true });
    });
  });

  test('other schemes and invalid URLs are refused', async () => {
    await expect(poster().post('ftp://example.com/x', BODY, {})).resolves.toMatchObject({ ok: false, error: expect.stringMatching(/scheme/) });
    await expect(poster().post('not a url', BODY, {})).resolves.toMatchObject({ ok: false, error: 'Invalid URL' });
  });
});
