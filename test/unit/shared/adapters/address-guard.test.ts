import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpFetcher } from '../../../../shared/platform/adapters/http-fetcher';
import { HttpWebhookPoster } from '../../../../shared/platform/adapters/webhook-poster';
import { FetchError } from '../../../../shared/platform/core/ports';

/**
 * The one address guard of attachments and webhooks (shared/platform/adapters/address-guard.ts). In AWS
 * mode only public addresses are reached; local mode (ALLOW_PRIVATE_URLS=true) adds loopback and
 * nothing else: never the private, link-local or unique-local ranges (issue 12, finding 9).
 */

// Host names under .test resolve (through a stubbed lookup) to the address they are named after.
const mockNames: Record<string, string> = {
  'ten.guard.test': '10.0.0.1',
  'metadata.guard.test': '169.254.169.254',
  'home.guard.test': '192.168.1.1',
  'ula.guard.test': 'fc00::1',
  'loopback.guard.test': '127.0.0.1',
};

jest.mock('node:dns', () => {
  const actual = jest.requireActual('node:dns');
  return {
    ...actual,
    lookup: (hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      const address = mockNames[hostname];
      if (!address) return actual.lookup(hostname, options, callback);
      const family = address.includes(':') ? 6 : 4;
      return options?.all ? callback(null, [{ address, family }]) : callback(null, address, family);
    },
  };
});

let server: http.Server;
let port: number;
const received: string[] = [];
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push(req.url ?? '');
    res.end('ok');
  });
  server.on('connection', () => connections++);
  // '::' takes IPv6 and IPv4 connections alike, so both loopbacks reach it.
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const local = { allowLoopback: true };
const fetcher = new HttpFetcher(local);
const poster = new HttpWebhookPoster({ ...local, timeoutMs: 2_000 });
const limits = { maxBytes: 1000, timeoutMs: 2_000 };

/** What each client makes of a URL: 'ok', or the error it reports. */
const clients = {
  attachments: (url: string) =>
    fetcher.fetch(url, limits).then(
      () => 'ok',
      (e: unknown) => (e instanceof FetchError ? e.message : `not a FetchError: ${String(e)}`),
    ),
  webhooks: (url: string) => poster.post(url, '{}', {}).then((r) => (r.ok ? 'ok' : (r.error ?? 'no error'))),
};

describe.each(Object.entries(clients))('local mode (loopback allowed) for %s', (_, request) => {
  test.each([
    ['10.0.0.1', 'http://10.0.0.1/x'],
    ['169.254.169.254 (instance metadata)', 'http://169.254.169.254/latest/meta-data/'],
    ['192.168.1.1', 'http://192.168.1.1/x'],
    ['fc00::1', 'http://[fc00::1]/x'],
    ['a name resolving to 10.0.0.1', 'http://ten.guard.test/x'],
    ['a name resolving to 169.254.169.254', 'http://metadata.guard.test/x'],
    ['a name resolving to 192.168.1.1', 'http://home.guard.test/x'],
    ['a name resolving to fc00::1', 'http://ula.guard.test/x'],
  ])('refuses %s before connecting', async (_, url) => {
    await expect(request(url)).resolves.toMatch(/^Refusing to connect to a private address/);
  });

  test.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port}/ok`],
    ['::1', () => `http://[::1]:${port}/ok`],
    ['a name resolving to 127.0.0.1', () => `http://loopback.guard.test:${port}/ok`],
  ])('reaches %s', async (_, url) => {
    const before = received.length;
    await expect(request(url())).resolves.toBe('ok');
    expect(received.length).toBe(before + 1);
  });
});

describe.each([
  ['attachments', (url: string) => new HttpFetcher({ allowLoopback: false }).fetch(url, limits).then(() => 'ok', (e: Error) => e.message)],
  ['webhooks', (url: string) => new HttpWebhookPoster({ allowLoopback: false, timeoutMs: 2_000 }).post(url, '{}', {}).then((r) => (r.ok ? 'ok' : (r.error ?? '')))],
])('AWS mode for %s', (_, request) => {
  test.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port}/ok`],
    ['::1', () => `http://[::1]:${port}/ok`],
    ['a name resolving to 127.0.0.1', () => `http://loopback.guard.test:${port}/ok`],
    ['a name resolving to 169.254.169.254', () => 'http://metadata.guard.test/x'],
  ])('refuses %s without connecting', async (_, url) => {
    const before = connections;
    await expect(request(url())).resolves.toMatch(/^Refusing to connect to a private address/);
    expect(connections).toBe(before);
  });
});
