import type { Needs } from '../../platform/core/dependencies';
import type { DmarcQuery } from './dmarc-answers';
import { readRows } from './dmarc-repository';
import { summarizeDmarc, type DmarcSummary } from './dmarc-summary';

/** The window of `GET /domains/{domain}/dmarc` when `days` is not given. */
export const DEFAULT_DMARC_DAYS = 30;

/** The window of `days` UTC days ending today. */
export function dmarcWindow(now: Date, days: number): { days: number; from: string; to: string } {
  return { days, from: new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10), to: now.toISOString().slice(0, 10) };
}

/** A domain's DMARC summary over a window (the caller found the domain). */
export async function dmarcSummaryOf(deps: Needs<'db'>, projectId: string, domain: string, window: { days: number; from: string; to: string }): Promise<DmarcSummary> {
  return summarizeDmarc(domain, await readRows(deps.db, projectId, domain, window.from, window.to), window);
}

/** `GET /domains/{domain}/dmarc` of a domain the caller found registered (requireDomain: 404 DOMAIN_NOT_FOUND otherwise). */
export async function domainDmarc(deps: Needs<'db' | 'clock'>, projectId: string, domain: string, query: DmarcQuery): Promise<DmarcSummary> {
  const days = query.days ? Number(query.days) : DEFAULT_DMARC_DAYS;
  return dmarcSummaryOf(deps, projectId, domain, dmarcWindow(deps.clock.now(), days));
}
