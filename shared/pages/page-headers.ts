/**
 * Headers of every public HTML page: the page's own Content-Security-Policy, and never framed,
 * cached, indexed or sent with a referrer.
 */
export function htmlPageHeaders(contentSecurityPolicy: string[]): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': contentSecurityPolicy.join('; '),
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-robots-tag': 'noindex, nofollow',
  };
}
