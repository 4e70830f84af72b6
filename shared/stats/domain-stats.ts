import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../store/client';
import { DOMAIN_STAT_SHARDS, DOMAIN_STAT_SK_PREFIX, domainStatKey, domainStatPartitions, domainStatRange } from '../store/keys';
import { queryAll, queryAllByPrefix } from '../store/query';

/** Daily counters of one sender domain, kept as mails and events happen (never by scanning activity). */
export const COUNTER_FIELDS = ['sent', 'sent_test', 'delivered', 'hard_bounced', 'soft_bounced', 'complained', 'unique_opens', 'unique_clicks'] as const;
export type CounterField = (typeof COUNTER_FIELDS)[number];
export type DomainCounts = Record<CounterField, number>;

/** The UTC day (YYYY-MM-DD) of an instant. */
export const dayOf = (at: Date | string): string => new Date(at).toISOString().slice(0, 10);

/**
 * Increments gathered over one batch and written with one UpdateItem per (project, domain, day):
 * ten mails from one domain cost one write unit, not ten. Each write goes to one of the counter's
 * shards, at random, so that no partition takes every batch of a busy project.
 */
export class CounterBatch {
  constructor(private readonly pickShard: () => number = () => Math.floor(Math.random() * DOMAIN_STAT_SHARDS)) {}

  private readonly pending = new Map<string, { projectId: string; domain: string; day: string; counts: Partial<DomainCounts> }>();

  /** Adds `n` to a counter. */
  add(projectId: string, domain: string, day: string, field: CounterField, n = 1): void {
    const key = `${projectId}|${domain.toLowerCase()}|${day}`;
    const entry = this.pending.get(key) ?? { projectId, domain: domain.toLowerCase(), day, counts: {} };
    entry.counts[field] = (entry.counts[field] ?? 0) + n;
    this.pending.set(key, entry);
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
    const entries = [...this.pending.values()];
    this.pending.clear();
    await Promise.all(
      entries.map((e) => {
        const fields = Object.entries(e.counts);
        return db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: domainStatKey(e.projectId, e.domain, e.day, this.pickShard()),
            UpdateExpression: `ADD ${fields.map((_, i) => `#f${i} :v${i}`).join(', ')} SET #d = :d, #day = :day${ttl ? ', #ttl = :ttl' : ''}`,
            ExpressionAttributeNames: {
              ...Object.fromEntries(fields.map(([f], i) => [`#f${i}`, f])),
              '#d': 'domain',
              '#day': 'day',
              ...(ttl ? { '#ttl': 'ttl' } : {}),
            },
            ExpressionAttributeValues: {
              ...Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])),
              ':d': e.domain,
              ':day': e.day,
              ...(ttl ? { ':ttl': ttl } : {}),
            },
          }),
        );
      }),
    );
  }
}

/** A domain's counters summed over the days from `fromDay` to `toDay` (inclusive). */
export async function readDomainCounts(db: Db, projectId: string, domain: string, fromDay: string, toDay: string): Promise<DomainCounts> {
  const totals = Object.fromEntries(COUNTER_FIELDS.map((f) => [f, 0])) as DomainCounts;
  const range = domainStatRange(domain, fromDay, toDay);
  const shards = await Promise.all(
    domainStatPartitions(projectId).map((pk) =>
      queryAll(db, {
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': range.from, ':to': range.to },
      }),
    ),
  );
  for (const item of shards.flat()) for (const f of COUNTER_FIELDS) totals[f] += Number(item[f] ?? 0);
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
  const shards = await Promise.all(domainStatPartitions(projectId).map((pk) => queryAllByPrefix(db, pk, DOMAIN_STAT_SK_PREFIX)));
  for (const item of shards.flat()) {
    const day = item.day as string;
    if (day < fromDay || day > toDay) continue;
    const domain = item.domain as string;
    const totals = byDomain.get(domain) ?? (Object.fromEntries(COUNTER_FIELDS.map((f) => [f, 0])) as DomainCounts);
    for (const f of COUNTER_FIELDS) totals[f] += Number(item[f] ?? 0);
    byDomain.set(domain, totals);
  }
  return byDomain;
}
