import { createHash } from 'node:crypto';

/**
 * JSON with object keys in a fixed (code unit) order at every depth, so that two bodies that
 * differ only in key order give the same text. Array order is kept: it is meaningful. An absent
 * body gives the empty string, which no JSON value produces.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * What makes two requests "the same request" for one key: the route (its key carries the
 * method), the key mode (a live request must not be answered with a test request's outcome) and
 * the parsed body. SHA-256 hex.
 */
export function requestFingerprint(input: { routeKey: string; mode: string; body: unknown }): string {
  return createHash('sha256').update(`${input.routeKey}\n${input.mode}\n${canonicalJson(input.body)}`, 'utf8').digest('hex');
}

/** True for a body asking for a dry run, which is never cached and writes nothing. */
export function isDryRun(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as Record<string, unknown>).dry_run === true;
}
