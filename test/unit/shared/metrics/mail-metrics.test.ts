import { Metrics } from '@aws-lambda-powertools/metrics';
import { MailMetrics } from '../../../../shared/mail-pipeline/metrics/mail-metrics';
import { CounterBatch } from '../../../../shared/identities/stats/domain-stats';

/** A Powertools sink that is enabled whatever the environment says, writing EMF lines into `lines`. */
function capturingSink(lines: Record<string, unknown>[]): Metrics {
  const previous = process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  const sink = new Metrics({ namespace: 'Mailroom', serviceName: 'mailroom' });
  process.env.POWERTOOLS_METRICS_DISABLED = previous;
  (sink as unknown as { console: { log: (s: string) => void } }).console = { log: (s: string) => lines.push(JSON.parse(s)) };
  return sink;
}

describe('mail metrics (sends, failures, bounces, complaints per project)', () => {
  it('writes one EMF line per project, with the project and the deployment-wide dimension sets', () => {
    const lines: Record<string, unknown>[] = [];
    const metrics = new MailMetrics(capturingSink(lines));
    metrics.add('p1', 'Sent', 3);
    metrics.add('p1', 'Failed');
    metrics.add('p2', 'Complained');
    metrics.publish();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ service: 'mailroom', project_id: 'p1', Sent: 3, Failed: 1 });
    expect(lines[1]).toMatchObject({ project_id: 'p2', Complained: 1 });
    const aws = lines[0]._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] };
    expect(aws.CloudWatchMetrics[0].Namespace).toBe('Mailroom');
    expect(aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'project_id'], ['service']]);
  });

  it('writes nothing when the invocation counted nothing, and nothing twice', () => {
    const lines: Record<string, unknown>[] = [];
    const metrics = new MailMetrics(capturingSink(lines));
    metrics.add('p1', 'Failed', 0);
    metrics.publish();
    expect(lines).toEqual([]);
    metrics.add('p1', 'Sent');
    metrics.publish();
    metrics.publish();
    expect(lines).toHaveLength(1);
  });

  it('counts what the statistics counters count: live and test sends, hard bounces (not soft ones), complaints', () => {
    const lines: Record<string, unknown>[] = [];
    const metrics = new MailMetrics(capturingSink(lines));
    const counters = new CounterBatch(() => 0);
    counters.add('p1', 'a.example', '2026-01-01', 'sent', 2);
    counters.add('p1', 'b.example', '2026-01-01', 'sent_test');
    counters.add('p1', 'a.example', '2026-01-01', 'hard_bounced');
    counters.add('p1', 'a.example', '2026-01-01', 'soft_bounced');
    counters.add('p2', 'c.example', '2026-01-02', 'complained');
    counters.add('p2', 'c.example', '2026-01-02', 'delivered');
    metrics.addCounters(counters);
    metrics.publish();
    const values = lines.map(({ _aws, service, ...rest }) => rest);
    expect(values).toEqual([
      { project_id: 'p1', Sent: 3, Bounced: 1 },
      { project_id: 'p2', Complained: 1 },
    ]);
    // Reading the totals leaves the counters to be written.
    expect(counters.projectTotals().get('p1')).toEqual({ sent: 2, sent_test: 1, hard_bounced: 1, soft_bounced: 1 });
  });

  it('with PROJECT_METRICS=off, writes one line of totals with the service dimension only', () => {
    const lines: Record<string, unknown>[] = [];
    const metrics = new MailMetrics(capturingSink(lines), false);
    metrics.add('p1', 'Sent', 3);
    metrics.add('p2', 'Sent', 2);
    metrics.add('p2', 'Bounced');
    metrics.publish();
    expect(lines).toHaveLength(1);
    const { _aws, ...values } = lines[0] as { _aws: { CloudWatchMetrics: { Dimensions: string[][] }[] } };
    expect(values).toEqual({ service: 'mailroom', Sent: 5, Bounced: 1 });
    expect(_aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    metrics.publish();
    expect(lines).toHaveLength(1);
  });

  it('never throws into the worker, even when the sink does', () => {
    const sink = capturingSink([]);
    sink.publishStoredMetrics = () => {
      throw new Error('boom');
    };
    const metrics = new MailMetrics(sink);
    metrics.add('p1', 'Sent');
    expect(() => metrics.publish()).not.toThrow();
  });
});
