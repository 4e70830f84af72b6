import * as z from '../../platform/core/zod';
import { badRequest } from '../../platform/core/errors';
import type { Db } from '../../platform/store/client';
import { dayOf, hardBounceRate, readProjectCounts } from './domain-stats';

/** A timestamp parameter: absent or empty for its default, else a text `new Date` reads. */
const instantParameter = (name: string) =>
  z.optional(z.string().check(z.refine((v) => v === '' || !Number.isNaN(new Date(v).getTime()), `${name} must be an ISO 8601 timestamp`)));

/** The query of `GET /v1/domain-stats`, in the order it is checked (`until` first: the default `since` is counted from it). */
export const domainStatsQuerySchema = z.object({
  until: instantParameter('until'),
  since: instantParameter('since'),
});

/** A query `domainStatsQuerySchema` accepted. */
export type DomainStatsQuery = z.output<typeof domainStatsQuerySchema>;

/**
 * `GET /v1/domain-stats`: per sender domain over a period (default the last 30 days), from the
 * daily counters kept as mails and events happen. Test sends are excluded from every figure
 * (`total_sent` counts live mails only); `hard_bounce_rate` is permanent bounces per 100 live
 * mails sent in the period.
 */
export async function domainStats(db: Db, projectId: string, query: DomainStatsQuery, now: Date) {
  const until = query.until ? new Date(query.until) : now;
  const since = query.since ? new Date(query.since) : new Date(until.getTime() - 30 * 86_400_000);
  if (since > until) throw badRequest('since must not be after until');
  const counts = await readProjectCounts(db, projectId, dayOf(since), dayOf(until));
  const data = [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([domain, c]) => ({
      sender_domain: domain,
      total_sent: c.sent,
      total_delivered: c.delivered,
      hard_bounced: c.hard_bounced,
      soft_bounced: c.soft_bounced,
      complained: c.complained,
      unique_opens: c.unique_opens,
      unique_clicks: c.unique_clicks,
      hard_bounce_rate: hardBounceRate(c),
    }));
  return { success: true, period: { since: since.toISOString(), until: until.toISOString() }, data };
}
