import type { ApiResult } from '../../platform/http/api-types';
import { htmlPageHeaders, newNonce, nonceSource } from '../../platform/pages/page-headers';
import { escapeHtml, pageLayout } from '../../platform/pages/page-layout';

/** A 1x1 transparent GIF (42 bytes: GIF89a, a two-colour table, colour 0 transparent). */
export const TRANSPARENT_GIF: Buffer = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** The one page of the tracking host: a title and a sentence, its own nonced style, no script. */
function page(status: number, title: string, message: string): ApiResult {
  const nonce = newNonce();
  const main = `
    <h1>${escapeHtml(title)}</h1>
    <p>${escapeHtml(message)}</p>`;
  return { status, headers: htmlPageHeaders({ 'style-src': nonceSource(nonce) }), body: pageLayout({ nonce, title, main, style: STYLE }) };
}

const STYLE = 'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}';

/** The answer to a click token that is tampered with, unknown, or names no link of its mail. */
export function invalidLinkPage(): ApiResult {
  return page(404, 'This link is not valid', 'The link you followed is not valid. Please check the original email.');
}

/** The answer when the link could not be looked up (the visitor may try again). */
export function trackingErrorPage(): ApiResult {
  return page(500, 'Something went wrong', 'This link could not be opened right now. Please try again in a moment.');
}
