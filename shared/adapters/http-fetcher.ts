import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { FetchError, type Fetcher } from '../ports';

const MAX_REDIRECTS = 3;

/** True for loopback, private, link-local, unique-local, CGNAT, multicast and other non-public ranges. */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() !== 'unicast';
}

/**
 * A DNS lookup that refuses private addresses. Checking the address the socket actually connects
 * to (not a separate pre-resolution) closes the DNS-rebinding gap.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const allowed = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (allowed.length === 0) {
        return callback(new FetchError(`Refusing to connect to a private address for ${hostname}`) as NodeJS.ErrnoException, '', 0);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/** Fetcher over node's http(s) with the private-address guard, a byte cap, a timeout and few redirects. */
export class HttpFetcher implements Fetcher {
  constructor(private readonly options: { allowPrivate: boolean }) {}

  async fetch(url: string, limits: { maxBytes: number; timeoutMs: number }): Promise<{ body: Buffer; contentType?: string }> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const result = await this.fetchOnce(current, limits);
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
    limits: { maxBytes: number; timeoutMs: number },
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
    if (!this.options.allowPrivate && ipaddr.isValid(target.hostname.replace(/^\[|\]$/g, '')) && isPrivateAddress(target.hostname.replace(/^\[|\]$/g, ''))) {
      return Promise.reject(new FetchError(`Refusing to connect to a private address ${target.hostname}`));
    }
    const lib = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.get(target, { lookup: guardedLookup(this.options.allowPrivate), timeout: limits.timeoutMs }, (res) => {
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
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ body: Buffer.concat(chunks), contentType: res.headers['content-type'] }));
        res.on('error', (e) => reject(new FetchError(`GET ${url} failed: ${e.message}`, { cause: e })));
      });
      const deadline = setTimeout(() => req.destroy(new FetchError(`GET ${url} timed out`)), limits.timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new FetchError(`GET ${url} timed out`)));
      req.on('error', (e) => reject(e instanceof FetchError ? e : new FetchError(`GET ${url} failed: ${e.message}`, { cause: e })));
    });
  }
}
