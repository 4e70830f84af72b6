import type { Activity } from '../activity/activity';
import type { Services } from '../container';
import { listSubdomains } from '../domains/subdomains';
import { logger } from '../logger';
import { domainOf } from '../mail/addresses';
import { rewriteForTracking } from './rewrite-html';

/**
 * Where open and click tracking applies, and under which base URL.
 *
 * Part 4.1: tracking is applied in the background, and transactional senders skip it. The links
 * live on the project's tracking domain (`https://track.<sender domain>`) once its CNAME is
 * verified; otherwise on the service's own public URL, read from the environment:
 *
 *   TRACKING_BASE_URL  the public base URL of the API (`https://api.example.com`, or the local
 *                      cloud's `http://localhost:<port>`), without a trailing slash;
 *   TRACKING_HOST      when TRACKING_BASE_URL is not set but TRACKING_HOST is (the host tracking
 *                      CNAMEs point to, which serves the same endpoints): `https://<TRACKING_HOST>`.
 *
 * Neither set and no verified tracking domain: the mail goes out untracked (logged once per process).
 * The variables are read at each send (not cached), so tests may set them after start-up.
 */

/** Email types sent without tracking. */
const UNTRACKED_TYPES: ReadonlySet<string> = new Set(['transactional']);

/** The service's own public base URL for tracking links, or undefined when none is configured. */
export function serviceTrackingBaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env.TRACKING_BASE_URL?.trim();
  if (explicit) return explicit.replace(/\/+$/, '');
  const host = env.TRACKING_HOST?.trim();
  return host ? `https://${host.replace(/\/+$/, '')}` : undefined;
}

/**
 * The base URL of an activity's tracking links: the verified tracking domain of the sender's
 * domain (or of the registered domain it is a subdomain of), else the service's own URL.
 */
export async function trackingBaseUrl(deps: Pick<Services, 'db'>, projectId: string, senderEmail: string): Promise<string | undefined> {
  const domain = domainOf(senderEmail).toLowerCase();
  const verified = (await listSubdomains(deps.db, 'tracking', projectId))
    .filter((s) => s.status === 'verified' && (domain === s.parent_domain || domain.endsWith(`.${s.parent_domain}`)))
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
  deps: Pick<Services, 'db'>,
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
      logger.warn('Open and click tracking is off: set TRACKING_BASE_URL (or TRACKING_HOST), or verify a tracking domain');
    }
    return html;
  }
  return rewriteForTracking(html, { baseUrl, activityId: activity.id, secret, keep: [...keep] });
}
