import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '../../platform/core/config';
import type { CounterBatch } from '../../identities/stats/domain-stats';
import { METRICS_NAMESPACE, METRICS_SERVICE, PROJECT_DIMENSION, type MailMetric } from './metric-names';

/**
 * Module scope, so that a warm instance builds it once. POWERTOOLS_METRICS_DISABLED=true silences
 * it (the local cloud and the tests set it unless asked otherwise).
 */
const defaultSink = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

/**
 * Mail counts of one worker invocation, per project, published as CloudWatch embedded metrics
 * (EMF: one log line per project, no PutMetricData call) once the invocation's records settled.
 */
export class MailMetrics {
  private readonly counts = new Map<string, Partial<Record<MailMetric, number>>>();

  constructor(
    private readonly sink: Metrics = defaultSink,
    /** With PROJECT_METRICS=off, one line of deployment-wide totals instead of one per project. */
    private readonly perProject: boolean = config().PROJECT_METRICS === 'on',
  ) {}

  /** Adds `n` to a project's count of a metric. */
  add(projectId: string, metric: MailMetric, n = 1): void {
    if (n <= 0) return;
    const entry = this.counts.get(projectId) ?? {};
    entry[metric] = (entry[metric] ?? 0) + n;
    this.counts.set(projectId, entry);
  }

  /**
   * Takes the sends, hard bounces and complaints a batch's counters gathered: the metrics count
   * exactly what the statistics count (a redelivered event or mail is counted by neither).
   */
  addCounters(counters: CounterBatch): void {
    for (const [projectId, c] of counters.projectTotals()) {
      this.add(projectId, 'Sent', (c.sent ?? 0) + (c.sent_test ?? 0));
      this.add(projectId, 'Bounced', c.hard_bounced ?? 0);
      this.add(projectId, 'Complained', c.complained ?? 0);
    }
  }

  /**
   * Writes one EMF line per project, with two dimension sets: (service, project_id) for the
   * project's own figures and (service) for the deployment's totals, which the dashboard reads;
   * or, with PROJECT_METRICS=off, one line of totals with (service) only. Never throws: metrics
   * must not fail the work they describe.
   */
  publish(): void {
    try {
      if (!this.perProject) {
        const totals: Partial<Record<MailMetric, number>> = {};
        for (const counts of this.counts.values()) {
          for (const [metric, n] of Object.entries(counts) as [MailMetric, number][]) totals[metric] = (totals[metric] ?? 0) + n;
        }
        if (Object.keys(totals).length === 0) return;
        for (const [metric, n] of Object.entries(totals)) this.sink.addMetric(metric, MetricUnit.Count, n);
        this.sink.publishStoredMetrics();
        return;
      }
      for (const [projectId, counts] of this.counts) {
        this.sink.addDimension(PROJECT_DIMENSION, projectId);
        this.sink.addDimensions({});
        for (const [metric, n] of Object.entries(counts)) this.sink.addMetric(metric, MetricUnit.Count, n);
        this.sink.publishStoredMetrics();
      }
    } catch {
      // A malformed dimension (it cannot happen with our ids) would lose the figures of one invocation only.
    } finally {
      this.counts.clear();
    }
  }
}
