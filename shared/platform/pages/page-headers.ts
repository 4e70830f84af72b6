import { randomBytes } from 'node:crypto';

/** A fresh CSP nonce for one response. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** The directives a page may set, in the order they are written. */
const DIRECTIVES = [
  'default-src',
  'script-src',
  'style-src',
  'img-src',
  'font-src',
  'connect-src',
  'object-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
  'sandbox',
] as const;

/** A page's loosening of the strict base policy, directive by directive. */
export type CspDirectives = Partial<Record<(typeof DIRECTIVES)[number], string>>;

/** The strict base: nothing loads, nothing frames the page, no `<base>`, no form posts anywhere. */
const BASE: CspDirectives = { 'default-src': "'none'", 'base-uri': "'none'", 'form-action': "'none'", 'frame-ancestors': "'none'" };

/** The Content-Security-Policy of a public page: the strict base with the page's own directives over it. */
export function contentSecurityPolicy(directives: CspDirectives): string {
  const merged: CspDirectives = { ...BASE, ...directives };
  return DIRECTIVES.filter((name) => merged[name] !== undefined)
    .map((name) => `${name} ${merged[name]}`)
    .join('; ');
}

/** The source expression that lets a page's own `<style>` or `<script>` of this nonce run. */
export function nonceSource(nonce: string): string {
  return `'nonce-${nonce}'`;
}

/**
 * Headers of every public HTML page: its Content-Security-Policy, and never framed, cached,
 * indexed or sent with a referrer.
 */
export function htmlPageHeaders(directives: CspDirectives): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': contentSecurityPolicy(directives),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-robots-tag': 'noindex, nofollow',
  };
}
