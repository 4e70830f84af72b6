import type { Db } from '../../platform/store/client';
import { DOMAIN_STAT_SHARDS, domainStatKey, projectStatKey } from '../../platform/store/keys';
import { addToStatCounter, domainDayItems, projectDomainDayItems, type CounterWrite } from './stats-repository';

/** Daily counters of one sender domain, kept as mails and events happen (never by scanning activity). */
export const COUNTER_FIELDS = ['sent', 'sent_test', 'delivered', 'hard_bounced', 'soft_bounced', 'complained', 'unique_opens', 'unique_clicks'] as const;
export type CounterField = (typeof COUNTER_FIELDS)[number];
export type DomainCounts = Record<CounterField, number>;

/** The UTC day (YYYY-MM-DD) of an instant. */
export const dayOf = (at: Date | string): string => new Date(at).toISOString().slice(0, 10);

/**
 * Hourly counters of a whole project (GET /v1/stats), live and test traffic apart: each mail and
 * event is counted in the hour it happened. `bounced` is permanent, `bounced_transient` the others.
 */
export const PROJECT_COUNTER_FIELDS = ['sent', 'delivered', 'bounced', 'bounced_transient', 'complained', 'opened', 'clicked', 'failed', 'suppressed'] as const;
export type ProjectCounterField = (typeof PROJECT_COUNTER_FIELDS)[number];
export type ProjectCounts = Record<ProjectCounterField, number>;
export type StatsMode = 'live' | 'test';

/** The UTC hour (YYYY-MM-DDTHH) of an instant. */
export const hourOf = (at: Date | string): string => new Date(at).toISOString().slice(0, 13);

/**
 * Increments gathered over one batch and written with one UpdateItem per (project, domain, day):
 * ten mails from one domain cost one write unit, not ten. Each write goes to one of the counter's
 * shards, at random, so that no partition takes every batch of a busy project.
 */
export class CounterBatch {
  constructor(private readonly pickShard: () => number = () => Math.floor(Math.random() * DOMAIN_STAT_SHARDS)) {}

  private readonly pending = new Map<string, { projectId: string; domain: string; day: string; counts: Partial<DomainCounts> }>();
  private readonly hourly = new Map<string, { projectId: string; mode: StatsMode; hour: string; counts: Partial<ProjectCounts> }>();

  /** Adds `n` to a counter. */
  add(projectId: string, domain: string, day: string, field: CounterField, n = 1): void {
    const key = `${projectId}|${domain.toLowerCase()}|${day}`;
    const entry = this.pending.get(key) ?? { projectId, domain: domain.toLowerCase(), day, counts: {} };
    entry.counts[field] = (entry.counts[field] ?? 0) + n;
    this.pending.set(key, entry);
  }

  /**
   * Adds `n` to a project's hourly counter of `mode` in the hour of `at`. Gathered like the daily
   * ones: every mail and event of one batch in the same project, hour and mode makes one write.
   */
  addProject(projectId: string, mode: StatsMode, at: Date | string, field: ProjectCounterField, n = 1): void {
    const hour = hourOf(at);
    const key = `${projectId}|${mode}|${hour}`;
    const entry = this.hourly.get(key) ?? { projectId, mode, hour, counts: {} };
    entry.counts[field] = (entry.counts[field] ?? 0) + n;
    this.hourly.set(key, entry);
  }

  /** The gathered increments summed per project (over domains and days), without writing or clearing them. */
  projectTotals(): Map<string, Partial<DomainCounts>> {
    const totals = new Map<string, Partial<DomainCounts>>();
    for (const e of this.pending.values()) {
      const sum = totals.get(e.projectId) ?? {};
      for (const [field, n] of Object.entries(e.counts) as [CounterField, number][]) sum[field] = (sum[field] ?? 0) + n;
      totals.set(e.projectId, sum);
    }
    return totals;
  }

  /** Writes every gathered increment; the batch is empty afterwards. */
  async flush(db: Db, ttl?: number): Promise<void> {
    const writes: CounterWrite[] = [
      ...[...this.pending.values()].map((e) => ({
        key: domainStatKey(e.projectId, e.domain, e.day, this.pickShard()),
        counts: e.counts as Record<string, number>,
        set: { domain: e.domain, day: e.day },
      })),
      ...[...this.hourly.values()].map((e) => ({
        key: projectStatKey(e.projectId, e.mode, e.hour, this.pickShard()),
        counts: e.counts as Record<string, number>,
        set: { hour: e.hour },
      })),
    ];
    this.pending.clear();
    this.hourly.clear();
    await Promise.all(writes.map((w) => addToStatCounter(db, w, ttl)));
  }
}

/** A domain's counters summed over the days from `fromDay` to `toDay` (inclusive). */
export async function readDomainCounts(db: Db, projectId: string, domain: string, fromDay: string, toDay: string): Promise<DomainCounts> {
  const totals = Object.fromEntries(COUNTER_FIELDS.map((f) => [f, 0])) as DomainCounts;
  for (const item of await domainDayItems(db, projectId, domain, fromDay, toDay)) for (const f of COUNTER_FIELDS) totals[f] += Number(item[f] ?? 0);
  return totals;
}

/**
 * Permanent bounces as a percentage (0 to 100, two decimals) of the live mails sent in the same
 * period; 0 when nothing was sent. SES reviews an account near 5% and may pause it near 10%.
 */
export function hardBounceRate(counts: Pick<DomainCounts, 'sent' | 'hard_bounced'>): number {
  return counts.sent > 0 ? Math.round((counts.hard_bounced / counts.sent) * 10_000) / 100 : 0;
}

/** Every sender domain's counters of a project between two days (inclusive), keyed by domain. */
export async function readProjectCounts(db: Db, projectId: string, fromDay: string, toDay: string): Promise<Map<string, DomainCounts>> {
  const byDomain = new Map<string, DomainCounts>();
  for (const item of await projectDomainDayItems(db, projectId)) {
    const day = item.day as string;
    if (day < fromDay || day > toDay) continue;
    const domain = item.domain as string;
    const totals = byDomain.get(domain) ?? (Object.fromEntries(COUNTER_FIELDS.map((f) => [f, 0])) as DomainCounts);
    for (const f of COUNTER_FIELDS) totals[f] += Number(item[f] ?? 0);
    byDomain.set(domain, totals);
  }
  return byDomain;
}
