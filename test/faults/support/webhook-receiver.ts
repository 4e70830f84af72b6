import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver answered. */
export interface ReceivedHook {
  readonly webhookId: string;
  readonly event: string;
  readonly activityId?: string;
  readonly status: number;
}

/**
 * A webhook receiver on loopback that fails the first `failFirst` POSTs of every webhook id (the
 * Standard Webhooks `webhook-id` header, stable across a delivery's attempts) and accepts the next:
 * with `failFirst` 4, it fails 4 times in 5.
 */
export class FlakyReceiver {
  readonly hooks: ReceivedHook[] = [];
  private readonly attempts = new Map<string, number>();
  private server?: http.Server;
  url = '';

  constructor(private readonly failFirst: number) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: { event?: string; data?: { activity_id?: string } } = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // Recorded with an empty body: the check then finds the event missing.
        }
        const webhookId = String(req.headers['webhook-id'] ?? '');
        const seen = (this.attempts.get(webhookId) ?? 0) + 1;
        this.attempts.set(webhookId, seen);
        const status = seen <= this.failFirst ? 503 : 200;
        this.hooks.push({ webhookId, event: String(body.event), activityId: body.data?.activity_id, status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** `event|activity_id` of every event accepted (answered 200) at least once. */
  delivered(): Set<string> {
    return new Set(this.hooks.filter((h) => h.status === 200).map((h) => `${h.event}|${h.activityId}`));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
