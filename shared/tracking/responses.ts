import type { ApiResult } from '../http/api-types';

/** A 1x1 transparent GIF (42 bytes: GIF89a, a two-colour table, colour 0 transparent). */
export const TRANSPARENT_GIF: Buffer = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

function page(title: string, message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}</style></head>
<body><h1>${title}</h1><p>${message}</p></body>
</html>`;
}

/** The answer to a click token that is tampered with, unknown, or names no link of its mail. */
export function invalidLinkPage(): ApiResult {
  return { status: 404, headers: PAGE_HEADERS, body: page('This link is not valid', 'The link you followed is not valid. Please check the original email.') };
}

/** The answer when the link could not be looked up (the visitor may try again). */
export function trackingErrorPage(): ApiResult {
  return { status: 500, headers: PAGE_HEADERS, body: page('Something went wrong', 'This link could not be opened right now. Please try again in a moment.') };
}
