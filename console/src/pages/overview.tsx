/** Overview: the project's mail over time, its totals, its rates against SES's thresholds, and the domains needing attention. */
import { useMemo } from 'preact/hooks';
import { TimeChart, type Series } from '../components/chart';
import { Badge, Card, ErrorNote, Loading, PageHeader } from '../components/ui';
import { api, unwrap, type Schemas } from '../lib/api';
import { formatCount, formatRate } from '../lib/format';
import { href, replaceQuery } from '../lib/router';
import { useLoad } from '../lib/use-load';
import type { ProjectPageProps } from './page';

type StatsData = Schemas['StatsSeries']['data'];
type Rates = Schemas['SendingRates'];
type HealthEntry = Schemas['DomainHealthEntry'];

const HOUR_MS = 3_600_000;

/** The periods the picker offers: how far back, and the bucket size the API is asked for. */
const PERIODS = {
  '24h': { label: 'Last 24 hours (by hour)', interval: 'hour', back: 23 * HOUR_MS },
  '7d': { label: 'Last 7 days (by day)', interval: 'day', back: 6 * 24 * HOUR_MS },
  '30d': { label: 'Last 30 days (by day)', interval: 'day', back: 29 * 24 * HOUR_MS },
} as const;
type PeriodKey = keyof typeof PERIODS;

const isPeriod = (value: string | null): value is PeriodKey => value !== null && value in PERIODS;

/** The Overview page. */
export function Overview({ route, session }: ProjectPageProps) {
  const chosen = route.query.get('period');
  const period: PeriodKey = isPeriod(chosen) ? chosen : '7d';
  const stats = useLoad(() => {
    const { interval, back } = PERIODS[period];
    // The API rounds `since` down to its bucket: so many buckets back from the current one.
    const since = new Date(Date.now() - back).toISOString();
    return unwrap(api.GET('/v1/stats', { params: { query: { interval, since } } }));
  }, [period]);
  const health = useLoad(() => unwrap(api.GET('/domains/health')), []);

  return (
    <>
      <PageHeader
        title="Overview"
        subtitle={session.mode === 'test' ? 'Figures of mail sent with test keys only.' : 'Figures of live mail (test sends are not counted).'}
        actions={
          <div class="field period-picker">
            <label for="overview-period">Period</label>
            <select id="overview-period" value={period} onChange={(e) => replaceQuery({ period: e.currentTarget.value })}>
              {Object.entries(PERIODS).map(([key, p]) => (
                <option key={key} value={key}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
        }
      />
      <ErrorNote error={stats.error} title="The statistics could not be loaded" />
      {stats.data ? <StatsView data={stats.data.data} /> : stats.loading ? <Loading label="Loading the statistics…" /> : null}
      <Card title="Domains needing attention">
        <ErrorNote error={health.error} title="The domains' health could not be loaded" />
        {health.data ? <DomainsNeedingAttention entries={health.data.data} /> : health.loading ? <Loading label="Loading the domains' health…" /> : null}
      </Card>
    </>
  );
}

/** The totals, the rates and the charts of one period. */
function StatsView({ data }: { data: StatsData }) {
  const charts = useMemo(() => {
    const times = data.buckets.map((b) => b.start);
    const pick = (field: keyof StatsData['totals'], label: string, color: string): Series => ({ label, color, values: data.buckets.map((b) => b[field]) });
    return {
      times,
      volume: [pick('sent', 'Sent', '#2563eb'), pick('delivered', 'Delivered', '#16a34a')],
      problems: [pick('bounced', 'Permanent bounces', '#dc2626'), pick('complained', 'Complaints', '#9333ea'), pick('bounced_transient', 'Transient bounces', '#ca8a04')],
      engagement: [pick('opened', 'Opened', '#0891b2'), pick('clicked', 'Clicked', '#ea580c')],
    };
  }, [data]);
  const t = data.totals;
  const cards: [string, number][] = [
    ['Sent', t.sent],
    ['Delivered', t.delivered],
    ['Permanent bounces', t.bounced],
    ['Complaints', t.complained],
    ['Opened', t.opened],
    ['Clicked', t.clicked],
    ['Transient bounces', t.bounced_transient],
    ['Failed', t.failed],
    ['Suppressed', t.suppressed],
  ];
  return (
    <>
      <section aria-label="Totals of the period" class="stat-grid">
        {cards.map(([label, value]) => (
          <div class="card stat-card" key={label}>
            <div class="stat-label">{label}</div>
            <div class="stat">{formatCount(value)}</div>
          </div>
        ))}
      </section>
      <RatesCard rates={data.rates} />
      <div class="chart-grid">
        <Card>
          <TimeChart title="Sent and delivered" times={charts.times} series={charts.volume} />
        </Card>
        <Card>
          <TimeChart title="Bounces and complaints" times={charts.times} series={charts.problems} />
        </Card>
        <Card>
          <TimeChart title="Opens and clicks" times={charts.times} series={charts.engagement} />
        </Card>
      </div>
    </>
  );
}

/** Where a rate stands against SES's two thresholds, in words and a badge. */
function standing(over: { review: boolean; pause: boolean }): { tone: 'good' | 'warn' | 'bad'; word: string; text: string } {
  if (over.pause) return { tone: 'bad', word: 'At pause threshold', text: 'At or above the pause threshold: SES may pause the account\'s sending.' };
  if (over.review) return { tone: 'warn', word: 'At review threshold', text: 'At or above the review threshold: SES may put the account under review.' };
  return { tone: 'good', word: 'Below thresholds', text: 'Below SES\'s review threshold.' };
}

/** The permanent-bounce and complaint rates beside SES's review and pause thresholds. */
function RatesCard({ rates }: { rates: Rates }) {
  const rows = [
    { name: 'Permanent-bounce rate', rate: rates.bounce_rate, review: rates.bounce_review_threshold, pause: rates.bounce_pause_threshold, over: { review: rates.bounce_over_review, pause: rates.bounce_over_pause } },
    { name: 'Complaint rate', rate: rates.complaint_rate, review: rates.complaint_review_threshold, pause: rates.complaint_pause_threshold, over: { review: rates.complaint_over_review, pause: rates.complaint_over_pause } },
  ];
  return (
    <Card title="Rates against SES's thresholds">
      <div class="rates">
        {rows.map((row) => {
          const s = standing(row.over);
          return (
            <div class={`rate rate-${s.tone}`} key={row.name}>
              <div class="rate-head">
                <h3>{row.name}</h3>
                <Badge value={s.word} tone={s.tone} />
              </div>
              <div class="stat">{formatRate(row.rate)}</div>
              <p class="rate-text">{s.text}</p>
              <p class="muted small">
                Review at {formatRate(row.review)} · pause at {formatRate(row.pause)}
              </p>
            </div>
          );
        })}
      </div>
      <p class="muted small">
        Over this period and this project. SES measures its rates over the whole AWS account and a representative volume: these are an early indication, not SES's own figure.
      </p>
    </Card>
  );
}

/** The domains whose health is not good, with what to fix and a link to each. */
function DomainsNeedingAttention({ entries }: { entries: readonly HealthEntry[] }) {
  const needing = entries.filter((e) => e.status !== 'healthy' || e.issues.length > 0);
  if (entries.length === 0) return <p class="empty">No domain registered yet. <a href={href(['domains'])}>Register one in Domains</a>.</p>;
  if (needing.length === 0) return <p class="empty">All {formatCount(entries.length)} domains are healthy.</p>;
  return (
    <ul class="attention">
      {needing.map((e) => (
        <li key={e.domain}>
          <div class="inline">
            <a href={href(['domains', e.domain])}>{e.domain}</a>
            <Badge value={e.status} tone={e.status === 'critical' ? 'bad' : e.status === 'warning' ? 'warn' : 'good'} />
            {e.can_send ? null : <Badge value="cannot send" tone="bad" />}
            <span class="muted small">
              {formatCount(e.sent)} sent in 30 days · {e.hard_bounce_rate.toFixed(2)} % permanent bounces
            </span>
          </div>
          {e.issues.length > 0 ? (
            <ul class="issues">
              {e.issues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
