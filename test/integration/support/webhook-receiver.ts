import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback receiver of webhook posts: what it got, parsed, in order of arrival. */
export interface WebhookReceiver {
  /** The receiver's URL with `path` (a project's webhook_url points here). */
  url(path: string): string;
  /** Every body posted, parsed as JSON. */
  readonly posts: Record<string, any>[];
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port that answers every post with `status`. */
export async function startWebhookReceiver(status = 204): Promise<WebhookReceiver> {
  const posts: Record<string, any>[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      posts.push(JSON.parse(raw));
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    posts,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
