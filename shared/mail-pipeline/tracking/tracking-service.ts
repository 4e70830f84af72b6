import type { Activity } from '../activity/activity';
import { config, type Config } from '../../platform/core/config';
import type { Needs } from '../../platform/core/dependencies';
import { listTrackingDomainsCached } from '../../identities/domains/subdomains';
import { logger } from '../../platform/core/logger';
import { domainOf } from '../../platform/mail/addresses';
import { rewriteForTracking } from './rewrite-html';

/**
 * Where open and click tracking applies, and under which base URL.
 *
 * Part 4.1: tracking is applied in the background, and transactional senders skip it. The links
 * live on the project's tracking domain (`https://track.<sender domain>`) once its CNAME is
 * verified and the edge serves it over HTTPS (`tls.status: active`, see tracking-tls.ts);
 * otherwise on the service's own public URL, TRACKING_BASE_URL (`https://api.example.com`, or the
 * local cloud's `http://localhost:<port>`). TRACKING_HOST is only a CNAME target: no certificate
 * covers that name itself, so no link is built on it.
 *
 * Not set and no active tracking domain: the mail goes out untracked (logged once per process).
 * The variable is read at each send, so a refreshConfig after start-up takes effect at once.
 */

/** Email types sent without tracking. */
const UNTRACKED_TYPES: ReadonlySet<string> = new Set(['transactional']);

/** The service's own public base URL for tracking links, or undefined when none is configured. */
export function serviceTrackingBaseUrl(settings: Partial<Pick<Config, 'TRACKING_BASE_URL' | 'TRACKING_HOST'>> = { TRACKING_BASE_URL: config().TRACKING_BASE_URL }): string | undefined {
  const explicit = settings.TRACKING_BASE_URL?.trim();
  return explicit ? explicit.replace(/\/+$/, '') : undefined;
}


/**
 * The base URL of an activity's tracking links: the verified tracking domain served over HTTPS of
 * the sender's domain (or of the registered domain it is a subdomain of), else the service's own URL.
 */
export async function trackingBaseUrl(deps: Needs<'db' | 'clock'>, projectId: string, senderEmail: string): Promise<string | undefined> {
  const domain = domainOf(senderEmail).toLowerCase();
  const verified = (await listTrackingDomainsCached(deps.db, deps.clock, projectId))
    .filter((s) => s.status === 'verified' && s.tls?.status === 'active' && (domain === s.parent_domain || domain.endsWith(`.${s.parent_domain}`)))
    // The closest registered domain wins (`news.example.com` before `example.com`).
    .sort((a, b) => b.parent_domain.length - a.parent_domain.length);
  if (verified[0]) return `https://${verified[0].domain}`;
  return serviceTrackingBaseUrl();
}

let warned = false;

/**
 * The HTML to send for an activity: tracked, unless its type skips tracking, the body is empty, or
 * no base URL is known. The activity's stored body keeps the original HTML (the click redirect
 * reads its links from there).
 */
export async function trackedHtml(
  deps: Needs<'db' | 'clock'>,
  activity: Pick<Activity, 'id' | 'project_id' | 'email_type' | 'sender_email'>,
  html: string,
  secret: string,
  /** Links never rewritten (the unsubscribe and view-in-browser links of template sends). */
  keep: readonly string[] = [],
): Promise<string> {
  if (UNTRACKED_TYPES.has(activity.email_type) || html.trim() === '') return html;
  const baseUrl = await trackingBaseUrl(deps, activity.project_id, activity.sender_email);
  if (!baseUrl) {
    if (!warned) {
      warned = true;
      logger.warn('Open and click tracking is off: set TRACKING_BASE_URL, or verify a tracking domain');
    }
    return html;
  }
  return rewriteForTracking(html, { baseUrl, activityId: activity.id, secret, keep: [...keep] });
}
