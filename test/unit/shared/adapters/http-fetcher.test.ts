import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchError } from '../../../../shared/platform/core/ports';
import { HttpFetcher } from '../../../../shared/platform/adapters/http-fetcher';

describe('HttpFetcher (against a local server)', () => {
  const received: string[] = [];
  let server: http.Server;
  let base: string;

  const BODY = Buffer.from('attachment bytes: 0123456789');

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      received.push(req.url ?? '');
      res.on('error', () => undefined);
      switch (req.url) {
        case '/file':
          res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': BODY.length });
          res.end(BODY);
          return;
        case '/exact':
          res.writeHead(200, { 'Content-Length': 1000 });
          res.end(Buffer.alloc(1000, 1));
          return;
        case '/big-declared':
          res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': 5000 });
          res.end(Buffer.alloc(5000, 7));
          return;
        case '/big-chunked': {
          // No Content-Length: the body arrives chunked and only counting bytes catches it.
          res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
          let sent = 0;
          const push = () => {
            if (sent >= 5 || res.destroyed) return res.end();
            sent++;
            res.write(Buffer.alloc(1000, 3), () => setImmediate(push));
          };
          push();
          return;
        }
        case '/small-chunked':
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write('hello ');
          res.end('world');
          return;
        case '/missing':
          res.writeHead(404, { 'Content-Type': 'text/plain' });
          res.end('not found');
          return;
        case '/error':
          res.writeHead(500);
          res.end('boom');
          return;
        case '/redirect':
          res.writeHead(302, { Location: '/file' });
          res.end();
          return;
        case '/redirect-absolute':
          res.writeHead(301, { Location: `${base}/file` });
          res.end();
          return;
        case '/loop':
          res.writeHead(302, { Location: '/loop' });
          res.end();
          return;
        case '/redirect-file':
          res.writeHead(302, { Location: 'file:///etc/passwd' });
          res.end();
          return;
        case '/hang':
          // Never answers.
          return;
        case '/drip': {
          // Answers at once, then trickles a byte every 50 ms forever: only an overall deadline ends it.
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          const timer = setInterval(() => res.write('x'), 50);
          res.on('close', () => clearInterval(timer));
          return;
        }
        default:
          res.writeHead(404);
          res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  });

  beforeEach(() => {
    received.length = 0;
  });

  const limits = { maxBytes: 1000, timeoutMs: 2000 };
  const open = new HttpFetcher({ allowLoopback: true });
  const guarded = new HttpFetcher({ allowLoopback: false });

  async function fetchError(fetcher: HttpFetcher, url: string, l = limits): Promise<FetchError> {
    const error = await fetcher.fetch(url, l).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FetchError);
    return error as FetchError;
  }

  describe('private addresses', () => {
    test('a 127.0.0.1 URL is refused with loopback not allowed and the server never sees the request', async () => {
      const error = await fetchError(guarded, `${base}/file`);
      expect(error.message).toMatch(/private/i);
      expect(received).toEqual([]);
    });

    test('a host name resolving to loopback (localhost) is refused with loopback not allowed', async () => {
      const port = (server.address() as AddressInfo).port;
      const error = await fetchError(guarded, `http://localhost:${port}/file`);
      expect(error.message).toMatch(/private/i);
      expect(received).toEqual([]);
    });

    test('an IPv6 loopback literal is refused with loopback not allowed', async () => {
      await fetchError(guarded, 'http://[::1]:9/file');
    });

    test.each([
      ['decimal', (port: number) => `http://2130706433:${port}/file`],
      ['hexadecimal', (port: number) => `http://0x7f000001:${port}/file`],
      ['short dotted', (port: number) => `http://127.1:${port}/file`],
      ['IPv4-mapped IPv6', (port: number) => `http://[::ffff:127.0.0.1]:${port}/file`],
    ])('loopback written in %s form is refused with loopback not allowed', async (_, url) => {
      await fetchError(guarded, url((server.address() as AddressInfo).port));
      expect(received).toEqual([]);
    });

    test('the same URL is served with loopback allowed', async () => {
      const result = await open.fetch(`${base}/file`, limits);
      expect(result.body.equals(BODY)).toBe(true);
      expect(result.contentType).toBe('application/pdf');
      expect(received).toEqual(['/file']);
    });
  });

  describe('size cap', () => {
    test('a body of exactly maxBytes is accepted', async () => {
      const result = await open.fetch(`${base}/exact`, limits);
      expect(result.body.length).toBe(1000);
    });

    test('a declared Content-Length above maxBytes is refused', async () => {
      const error = await fetchError(open, `${base}/big-declared`);
      expect(error.message).toMatch(/larger than 1000 bytes/);
    });

    test('a chunked body growing past maxBytes is refused', async () => {
      const error = await fetchError(open, `${base}/big-chunked`);
      expect(error.message).toMatch(/larger than 1000 bytes/);
    });

    test('a small chunked body is assembled', async () => {
      const result = await open.fetch(`${base}/small-chunked`, limits);
      expect(result.body.toString()).toBe('hello world');
      expect(result.contentType).toBe('text/plain');
    });
  });

  describe('status codes', () => {
    test.each(['/missing', '/error'])('a non-2xx answer (%s) is a FetchError', async (path) => {
      const error = await fetchError(open, `${base}${path}`);
      expect(error.message).toMatch(/answered (404|500)/);
    });
  });

  describe('redirects', () => {
    test('a relative redirect is followed', async () => {
      const result = await open.fetch(`${base}/redirect`, limits);
      expect(result.body.equals(BODY)).toBe(true);
      expect(received).toEqual(['/redirect', '/file']);
    });

    test('an absolute redirect is followed', async () => {
      const result = await open.fetch(`${base}/redirect-absolute`, limits);
      expect(result.body.equals(BODY)).toBe(true);
    });

    test('a redirect to a non-http scheme is refused', async () => {
      const error = await fetchError(open, `${base}/redirect-file`);
      expect(error.message).toMatch(/Unsupported URL scheme/);
    });

    test('a redirect loop ends in a FetchError', async () => {
      const error = await fetchError(open, `${base}/loop`);
      expect(error.message).toMatch(/Too many redirects/);
      expect(received.length).toBeGreaterThan(1);
      expect(received.length).toBeLessThanOrEqual(10);
    });
  });

  describe('timeout', () => {
    test('a server that never answers fails after timeoutMs', async () => {
      const started = Date.now();
      const error = await fetchError(open, `${base}/hang`, { maxBytes: 1000, timeoutMs: 200 });
      const elapsed = Date.now() - started;
      expect(error.message).toMatch(/timed out/);
      expect(elapsed).toBeGreaterThanOrEqual(150);
      expect(elapsed).toBeLessThan(2000);
      expect(received).toEqual(['/hang']);
    });

    test('a body that keeps trickling in fails after timeoutMs (the deadline covers the whole response)', async () => {
      const started = Date.now();
      const error = await fetchError(open, `${base}/drip`, { maxBytes: 1_000_000, timeoutMs: 300 });
      const elapsed = Date.now() - started;
      expect(error.message).toMatch(/timed out/);
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(2000);
    });
  });

  describe('URL checks', () => {
    test.each(['ftp://127.0.0.1/file', 'file:///etc/passwd', 'not a url'])('%p is refused with a FetchError', async (url) => {
      await fetchError(open, url);
      expect(received).toEqual([]);
    });
  });
});
