import http from 'node:http';
import https from 'node:https';
import { FetchError, type FetchLimits, type Fetcher } from '../core/ports';
import { guardedAgent, refusalMessage, type AddressPolicy } from './address-guard';

const MAX_REDIRECTS = 3;

/**
 * Fetcher over node's http(s) with the address guard (on every redirect too), a byte cap, few
 * redirects, and one deadline for the whole fetch: a server that trickles bytes (never idle, never
 * done) is cut off at `timeoutMs` like one that never answers.
 */
export class HttpFetcher implements Fetcher {
  constructor(private readonly policy: AddressPolicy) {}

  async fetch(url: string, limits: FetchLimits): Promise<{ body: Buffer; contentType?: string }> {
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    const signal = limits.signal ? AbortSignal.any([deadline, limits.signal]) : deadline;
    const stop = () => (deadline.aborted ? new FetchError(`GET ${url} timed out after ${limits.timeoutMs} ms`) : (limits.signal?.reason as Error));
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (signal.aborted) throw stop();
      const result = await this.fetchOnce(current, limits, signal, stop);
      if ('redirect' in result) {
        current = new URL(result.redirect, current).toString();
        continue;
      }
      return result;
    }
    throw new FetchError(`Too many redirects fetching ${url}`);
  }

  private fetchOnce(
    url: string,
    limits: FetchLimits,
    signal: AbortSignal,
    stop: () => Error,
  ): Promise<{ body: Buffer; contentType?: string } | { redirect: string }> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.reject(new FetchError(`Invalid URL ${url}`));
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      return Promise.reject(new FetchError(`Unsupported URL scheme ${target.protocol}`));
    }
    const lib = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.get(target, { agent: guardedAgent(target.protocol, this.policy), timeout: limits.timeoutMs }, (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ redirect: res.headers.location });
        }
        if (status < 200 || status >= 300) {
          res.resume();
          return reject(new FetchError(`GET ${url} answered ${status}`));
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > limits.maxBytes) {
          req.destroy();
          return reject(new FetchError(`${url} is larger than ${limits.maxBytes} bytes`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            req.destroy();
            reject(new FetchError(`${url} is larger than ${limits.maxBytes} bytes`));
            return;
          }
          try {
            limits.onBytes?.(chunk.length);
          } catch (error) {
            req.destroy();
            reject(error as Error);
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ body: Buffer.concat(chunks), contentType: res.headers['content-type'] }));
        res.on('error', (e) => reject(new FetchError(`GET ${url} failed: ${e.message}`, { cause: e })));
      });
      // One deadline for the whole fetch (and the caller's signal): an idle timeout alone would let a
      // server that sends a byte now and then hold the worker until its own timeout.
      const abort = () => req.destroy(stop());
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
      req.on('close', () => signal.removeEventListener('abort', abort));
      req.on('timeout', () => req.destroy(new FetchError(`GET ${url} timed out`)));
      req.on('error', (e) => {
        if (signal.aborted) return reject(stop());
        if (e instanceof FetchError) return reject(e);
        const refused = refusalMessage(e);
        reject(new FetchError(refused ? `${refused} (${url})` : `GET ${url} failed: ${e.message}`, { cause: e }));
      });
    });
  }
}
