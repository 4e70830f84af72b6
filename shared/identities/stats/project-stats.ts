import * as z from '../../platform/core/zod';
import { badRequest } from '../../platform/core/errors';
import type { Db } from '../../platform/store/client';
import { hourOf, PROJECT_COUNTER_FIELDS, type ProjectCounts, type StatsMode } from './domain-stats';
import { SES_THRESHOLDS } from './ses-thresholds';
import { projectHourItems } from './stats-repository';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The longest series `GET /v1/stats` answers, per interval: it bounds the reads of one request. */
export const STATS_MAX_BUCKETS = { day: 90, hour: 168 } as const;

/** The series' default length when `since` is not given. */
const DEFAULT_BUCKETS = { day: 30, hour: 24 } as const;

/** A timestamp parameter: absent or empty for its default, else a text `new Date` reads. */
const instantParameter = (name: string) =>
  z.optional(z.string().check(z.refine((v) => v === '' || !Number.isNaN(new Date(v).getTime()), `${name} must be an ISO 8601 timestamp`)));

/** The query of `GET /v1/stats`, in the order it is checked. */
export const projectStatsQuerySchema = z.object({
  interval: z.optional(z.string().check(z.refine((v) => v === '' || v === 'day' || v === 'hour', 'interval must be day or hour'))),
  until: instantParameter('until'),
  since: instantParameter('since'),
});

/** A query `projectStatsQuerySchema` accepted. */
export type ProjectStatsQuery = z.output<typeof projectStatsQuerySchema>;

type Interval = keyof typeof STATS_MAX_BUCKETS;

/** The start of the UTC bucket (day or hour) holding an instant. */
const bucketStart = (at: Date, interval: Interval): Date => {
  const size = interval === 'day' ? DAY_MS : HOUR_MS;
  return new Date(Math.floor(at.getTime() / size) * size);
};

const zeroCounts = (): ProjectCounts => Object.fromEntries(PROJECT_COUNTER_FIELDS.map((f) => [f, 0])) as ProjectCounts;

/** A rate as a fraction (0 to 1, six decimals); 0 when the denominator is 0. */
const rate = (n: number, of: number): number => (of > 0 ? Math.round((n / of) * 1_000_000) / 1_000_000 : 0);

/** The period a query asks for, as whole buckets; a 400 for one too long or reversed. */
export function statsPeriod(query: ProjectStatsQuery, now: Date): { interval: Interval; first: Date; last: Date; buckets: number } {
  const interval: Interval = query.interval === 'hour' ? 'hour' : 'day';
  const size = interval === 'day' ? DAY_MS : HOUR_MS;
  const until = query.until ? new Date(query.until) : now;
  const last = bucketStart(until, interval);
  const first = query.since ? bucketStart(new Date(query.since), interval) : new Date(last.getTime() - (DEFAULT_BUCKETS[interval] - 1) * size);
  if (query.since && new Date(query.since) > until) throw badRequest('since must not be after until');
  const buckets = Math.round((last.getTime() - first.getTime()) / size) + 1;
  if (buckets > STATS_MAX_BUCKETS[interval]) {
    throw badRequest(
      interval === 'day'
        ? `A day series covers at most ${STATS_MAX_BUCKETS.day} days (asked: ${buckets}); shorten the period`
        : `An hour series covers at most ${STATS_MAX_BUCKETS.hour} hours (asked: ${buckets}); shorten the period or use interval=day`,
    );
  }
  return { interval, first, last, buckets };
}

/** A project's hourly counters of one mode between two hours (inclusive), summed over the shards, by hour. */
export async function readProjectHours(db: Db, projectId: string, mode: StatsMode, fromHour: string, toHour: string): Promise<Map<string, ProjectCounts>> {
  const byHour = new Map<string, ProjectCounts>();
  for (const item of await projectHourItems(db, projectId, mode, fromHour, toHour)) {
    const hour = item.hour as string;
    const counts = byHour.get(hour) ?? zeroCounts();
    for (const f of PROJECT_COUNTER_FIELDS) counts[f] += Number(item[f] ?? 0);
    byHour.set(hour, counts);
  }
  return byHour;
}

/**
 * `GET /v1/stats`: the caller's project's mail over time, one bucket per UTC day or hour, from the
 * hourly counters kept as mails and events happen, with the totals and the permanent-bounce and
 * complaint rates against SES's thresholds. A live key sees live traffic, a test key test traffic.
 */
export async function projectStats(db: Db, projectId: string, mode: StatsMode, query: ProjectStatsQuery, now: Date) {
  const { interval, first, last, buckets } = statsPeriod(query, now);
  const size = interval === 'day' ? DAY_MS : HOUR_MS;
  const lastHour = hourOf(new Date(last.getTime() + size - HOUR_MS));
  const hours = await readProjectHours(db, projectId, mode, hourOf(first), lastHour);
  const series = Array.from({ length: buckets }, (_, i) => ({ start: new Date(first.getTime() + i * size), counts: zeroCounts() }));
  for (const [hour, counts] of hours) {
    const index = Math.floor((new Date(`${hour}:00:00.000Z`).getTime() - first.getTime()) / size);
    const bucket = series[index];
    if (!bucket) continue;
    for (const f of PROJECT_COUNTER_FIELDS) bucket.counts[f] += counts[f];
  }
  const totals = zeroCounts();
  for (const b of series) for (const f of PROJECT_COUNTER_FIELDS) totals[f] += b.counts[f];
  const bounceRate = rate(totals.bounced, totals.sent);
  const complaintRate = rate(totals.complained, totals.sent);
  return {
    success: true as const,
    data: {
      mode,
      interval,
      since: first.toISOString(),
      until: new Date(last.getTime() + size).toISOString(),
      buckets: series.map((b) => ({ start: b.start.toISOString(), ...b.counts })),
      totals,
      rates: {
        bounce_rate: bounceRate,
        complaint_rate: complaintRate,
        bounce_review_threshold: SES_THRESHOLDS.bounce.review,
        bounce_pause_threshold: SES_THRESHOLDS.bounce.pause,
        complaint_review_threshold: SES_THRESHOLDS.complaint.review,
        complaint_pause_threshold: SES_THRESHOLDS.complaint.pause,
        bounce_over_review: bounceRate >= SES_THRESHOLDS.bounce.review,
        bounce_over_pause: bounceRate >= SES_THRESHOLDS.bounce.pause,
        complaint_over_review: complaintRate >= SES_THRESHOLDS.complaint.review,
        complaint_over_pause: complaintRate >= SES_THRESHOLDS.complaint.pause,
      },
    },
  };
}
