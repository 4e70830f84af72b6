import { config } from '../../platform/core/config';
import { serviceTrackingBaseUrl } from '../tracking/tracking-service';
import { escapeHtml } from '../../platform/pages/page-layout';
import { unsubscribeToken, viewToken } from './unsubscribe-tokens';

/**
 * The unsubscribe and view-in-browser links of one recipient of one mail (part 4.2): the URLs
 * (offered to templates as `unsubscribe_url` and `view_in_browser_url`) and the List-Unsubscribe
 * headers of RFC 2369 / RFC 8058 (one-click: the https URL answers a POST; the `mailto:` address
 * only when the deployment receives mail).
 */
export interface UnsubscribeLinks {
  unsubscribeUrl: string;
  viewInBrowserUrl: string;
  headers: Record<string, string>;
}

export function unsubscribeLinks(input: { activityId: string; projectId: string; email: string; baseUrl: string; secret: string }): UnsubscribeLinks {
  const base = input.baseUrl.replace(/\/+$/, '');
  const token = unsubscribeToken(input.activityId, input.email, input.secret);
  const unsubscribeUrl = `${base}/u/${token}`;
  const viewInBrowserUrl = `${base}/v/${viewToken(input.activityId, input.secret)}`;
  const cfg = config();
  // The mailto: address works only where the deployment receives mail; one-click (RFC 8058) needs only the https URL.
  const mailto = cfg.RECEIVING === 'on' ? `, <mailto:unsubscribe+${token}@${cfg.INBOUND_DOMAIN}>` : '';
  return {
    unsubscribeUrl,
    viewInBrowserUrl,
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>${mailto}`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * A recipient's links under the service's public URL, else where the API was reached (the local
 * cloud); undefined when neither is known, and the mail then goes without them.
 */
export function recipientUnsubscribeLinks(input: {
  activityId: string;
  projectId: string;
  email: string;
  secret: string;
  requestBaseUrl?: string;
}): UnsubscribeLinks | undefined {
  const baseUrl = serviceTrackingBaseUrl() ?? input.requestBaseUrl;
  return baseUrl ? unsubscribeLinks({ activityId: input.activityId, projectId: input.projectId, email: input.email, baseUrl, secret: input.secret }) : undefined;
}

/** A copy of the template variables offering `unsubscribe_url` and `view_in_browser_url`, unless the caller set them. */
export function withLinkVariables(variables: Record<string, unknown> | undefined, links: UnsubscribeLinks | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...variables };
  if (links) {
    out.unsubscribe_url ??= links.unsubscribeUrl;
    out.view_in_browser_url ??= links.viewInBrowserUrl;
  }
  return out;
}

/** Does the HTML already carry the link (as is, or with `&` written `&amp;`)? */
function containsUrl(html: string, url: string): boolean {
  return html.includes(url) || html.includes(escapeHtml(url));
}

/**
 * Appends a small unsubscribe footer (before `</body>`, else at the end) unless the HTML already
 * contains the unsubscribe URL.
 */
export function ensureUnsubscribeFooter(html: string, unsubscribeUrl: string): string {
  if (containsUrl(html, unsubscribeUrl)) return html;
  const footer =
    `<div style="margin-top:24px;font-size:12px;color:#6a737d;text-align:center">` +
    `<a href="${escapeHtml(unsubscribeUrl)}" style="color:#6a737d">Unsubscribe</a></div>`;
  const close = html.search(/<\/body\s*>(?![\s\S]*<\/body\s*>)/i);
  return close >= 0 ? `${html.slice(0, close)}${footer}${html.slice(close)}` : `${html}${footer}`;
}
