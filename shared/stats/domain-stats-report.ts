import { badRequest } from '../errors';
import type { Db } from '../store/client';
import { dayOf, hardBounceRate, readProjectCounts } from './domain-stats';

/**
 * `GET /v1/domain-stats`: per sender domain over a period (default the last 30 days), from the
 * daily counters kept as mails and events happen. Test sends are excluded from every figure
 * (`total_sent` counts live mails only); `hard_bounce_rate` is permanent bounces per 100 live
 * mails sent in the period.
 */
export async function domainStats(db: Db, projectId: string, query: Readonly<Record<string, string | undefined>>, now: Date) {
  const until = parseInstant(query.until, 'until') ?? now;
  const since = parseInstant(query.since, 'since') ?? new Date(until.getTime() - 30 * 86_400_000);
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

function parseInstant(value: string | undefined, name: string): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw badRequest(`${name} must be an ISO 8601 timestamp`);
  return date;
}
