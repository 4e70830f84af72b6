import type { Needs } from '../../platform/core/dependencies';
import { getSubdomain, saveTrackingTls, trackingDomainsDueForTls, type TrackingTls } from '../../identities/domains/subdomains';
import { logger } from '../../platform/core/logger';
import type { EdgeDomainState } from '../../platform/core/ports';

/**
 * HTTPS for verified tracking domains. Once the DNS sweep has seen `track.<domain>` CNAME to the
 * tracking host, the minute re-check asks the edge to serve it (a CloudFront distribution tenant
 * with a managed certificate) and keeps asking until it is active. Links move to the domain only
 * then (shared/mail-pipeline/tracking/tracking-service.ts), so no link is ever handed out on a name without a
 * certificate. Every step is idempotent: the edge finds its tenant by domain, and the state is
 * written after the edge call, so a crash in between repeats the call and creates nothing twice.
 */

const MINUTE = 60_000;

/** When to ask the edge again: every 2 minutes for the first half hour (certificates usually issue then), then every 30 minutes. */
export function nextTlsCheck(requestedAt: string, now: Date): string {
  const waited = now.getTime() - Date.parse(requestedAt);
  return new Date(now.getTime() + (waited < 30 * MINUTE ? 2 : 30) * MINUTE).toISOString();
}

/** The stored HTTPS state after an edge answer; active and failed are final (no next check). */
export function tlsAfter(previous: TrackingTls | undefined, state: EdgeDomainState, now: Date): TrackingTls {
  const at = now.toISOString();
  const requestedAt = previous?.requested_at ?? at;
  return {
    status: state.status,
    ...(state.detail ? { detail: state.detail } : {}),
    requested_at: requestedAt,
    checked_at: at,
    next_check_at: state.status === 'provisioning' ? nextTlsCheck(requestedAt, now) : null,
  };
}

/** Runs the due HTTPS checks; the number of tracking domains the edge was asked about. */
export async function provisionTrackingTls(deps: Needs<'db' | 'clock' | 'edge'>): Promise<number> {
  if (!deps.edge) return 0;
  const due = await trackingDomainsDueForTls(deps.db, deps.clock.now().toISOString());
  let asked = 0;
  for (const { project_id, parent_domain } of due) {
    const sub = await getSubdomain(deps.db, 'tracking', project_id, parent_domain, true);
    if (!sub || sub.status !== 'verified' || sub.tls?.next_check_at === null) continue;
    try {
      const state = await deps.edge.serve(sub.domain);
      asked++;
      const tls = tlsAfter(sub.tls, state, deps.clock.now());
      if (!(await saveTrackingTls(deps.db, sub, tls))) logger.info('Tracking domain no longer verified; HTTPS state not recorded', { domain: sub.domain });
      else if (tls.status !== 'provisioning') logger.info('Tracking domain HTTPS settled', { domain: sub.domain, status: tls.status, detail: tls.detail });
    } catch (error) {
      // One domain's failure must not hold up the others; it stays due and is retried next minute.
      logger.warn('Tracking domain HTTPS check failed; retried at the next run', { domain: sub.domain, error: (error as Error).message });
    }
  }
  return asked;
}
