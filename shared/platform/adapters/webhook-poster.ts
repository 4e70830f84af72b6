import http from 'node:http';
import https from 'node:https';
import { guardedAgent, refusalMessage, type AddressPolicy } from './address-guard';

/** What one POST came to. `ok` is a 2xx answer; anything else is retried (part 6). */
export interface PostResult {
  ok: boolean;
  /** The HTTP status, when the receiver answered at all. */
  status?: number;
  /** Why it is not ok: a refused address, a network error, a timeout, a status or a redirect. */
  error?: string;
  /** Response bytes read (never much more than the cap; the rest is never read). */
  responseBytes?: number;
  /** The first bytes of the response body (at most RESPONSE_HEAD_BYTES), raw: the delivery log keeps an excerpt. */
  responseHead?: Buffer;
}

/** Bytes of a response body kept on its PostResult, for the delivery log's excerpt. */
export const RESPONSE_HEAD_BYTES = 512;

/** Posts a webhook body to a URL. */
export interface WebhookPoster {
  post(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<PostResult>;
}

/** The whole attempt (DNS, connect, TLS, request, answer) must finish within this (part 6). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** The most of a response body that is ever read; the socket is destroyed after it. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface HttpWebhookPosterOptions extends AddressPolicy {
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/**
 * POSTs over node's http/https, one fresh connection per attempt (no keep-alive), with:
 * - the address guard shared with the attachment fetcher (address-guard.ts): a literal private IP
 *   in the URL is refused before connecting, and a host name is checked on the address the socket
 *   actually connects to (no DNS-rebinding gap);
 * - one deadline for the whole attempt;
 * - at most `maxResponseBytes` of the answer read, then the socket destroyed, so a slow or huge
 *   response never ties up the worker;
 * - no redirects followed (a 3xx is a failure: the configured URL is the one that must answer).
 */
export class HttpWebhookPoster implements WebhookPoster {
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: HttpWebhookPosterOptions) {
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  }

  post(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<PostResult> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ ok: false, error: 'Invalid URL' });
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      return Promise.resolve({ ok: false, error: `Unsupported URL scheme ${target.protocol}` });
    }
    const lib = target.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body, 'utf8');

    return new Promise<PostResult>((resolve) => {
      let settled = false;
      let status: number | undefined;
      let bytes = 0;
      const head: Buffer[] = [];
      let headBytes = 0;
      const finish = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        req.destroy();
        resolve(result);
      };
      const answered = (): PostResult => {
        const s = status as number;
        const responseHead = Buffer.concat(head);
        if (s >= 200 && s < 300) return { ok: true, status: s, responseBytes: bytes, responseHead };
        if (s >= 300 && s < 400) return { ok: false, status: s, error: `Redirect (HTTP ${s}) not followed`, responseBytes: bytes, responseHead };
        return { ok: false, status: s, error: `HTTP ${s}`, responseBytes: bytes, responseHead };
      };

      const req = lib.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(payload.length) },
          agent: guardedAgent(target.protocol, this.options),
        },
        (res) => {
          status = res.statusCode ?? 0;
          res.on('data', (chunk: Buffer) => {
            if (headBytes < RESPONSE_HEAD_BYTES) {
              const part = chunk.subarray(0, RESPONSE_HEAD_BYTES - headBytes);
              head.push(part);
              headBytes += part.length;
            }
            bytes += chunk.length;
            if (bytes >= this.maxResponseBytes) finish(answered());
          });
          res.on('end', () => finish(answered()));
          res.on('error', () => finish(answered()));
          res.on('aborted', () => finish(answered()));
        },
      );
      // One deadline for the whole attempt. A receiver that already sent its status has answered;
      // only its body is slow, and the body is never needed.
      const deadline = setTimeout(
        () => finish(status === undefined ? { ok: false, error: `Timed out after ${this.timeoutMs} ms` } : answered()),
        this.timeoutMs,
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (status !== undefined) return finish(answered());
        finish({ ok: false, error: describe(error) });
      });
      req.end(payload);
    });
  }
}

function describe(error: NodeJS.ErrnoException): string {
  const refused = refusalMessage(error);
  if (refused) return refused;
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
