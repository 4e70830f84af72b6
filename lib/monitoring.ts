import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { MAIL_METRICS, METRICS_NAMESPACE, METRICS_SERVICE, type MailMetric } from '../shared/mail-pipeline/metrics/metric-names';
import type { Api } from './api';
import type { ProjectFunction } from './project-function';
import { pascal } from './queues';

/**
 * Account bounce rate (SES `Reputation.BounceRate`, a fraction) that raises the alarm: SES puts an
 * account under review at 5% and may pause its sending at 10%.
 */
export const BOUNCE_RATE_ALARM = 0.04;
/** Account complaint rate that raises the alarm: SES reviews at 0.1% and may pause at 0.5%. */
export const COMPLAINT_RATE_ALARM = 0.0008;
/** Share of the API's answers that are 5xx, in percent, over 5 minutes, that raises the alarm. */
export const API_5XX_PERCENT_ALARM = 1;
/** Below this many requests in 5 minutes the 5xx rate is not judged: two errors of three calls are no outage. */
export const API_5XX_MIN_REQUESTS = 20;

export interface MonitoringProps {
  /** The HTTP API (requests, latency, 5xx). */
  readonly api: Api;
  /** Every work queue and its dead-letter queue, keyed by queue name. */
  readonly queues: Readonly<Record<string, sqs.IQueue>>;
  /** The dead-letter alarms the queue workers already raise (lib/queue-worker.ts), keyed by queue name. */
  readonly deadLetterAlarms: Readonly<Record<string, cloudwatch.Alarm>>;
  /** Every function that runs without a caller to see its errors (queue workers, scheduled jobs, inbound), keyed by name. */
  readonly backgroundFunctions: Readonly<Record<string, ProjectFunction>>;
  /** The SES configuration set (its reputation metrics are on the dashboard). */
  readonly configurationSetName: string;
  /**
   * An existing SNS topic that every alarm notifies (context `alarmTopicArn`).
   * @default - none; see alarmEmail
   */
  readonly alarmTopicArn?: string;
  /**
   * An address subscribed to a new alert topic (context `alarmEmail`); SNS mails a confirmation link first.
   * @default - none: the alarms change state in the console and notify nobody
   */
  readonly alarmEmail?: string;
}

/**
 * The operator's view: alarms on dead letters, background errors, the API's 5xx rate and the SES
 * reputation, an optional SNS topic they notify, and one dashboard. Reads only metrics that AWS
 * publishes and the workers' embedded metrics (shared/mail-pipeline/metrics/mail-metrics.ts).
 */
export class Monitoring extends Construct {
  /** Where the alarms go; undefined when neither a topic nor an address was given. */
  public readonly alarmTopic?: sns.ITopic;
  /** Every alarm of the stack, by a readable name (`dlq:send`, `errors:send-worker`, `api-5xx`, `ses-bounce-rate`...). */
  public readonly alarms: Readonly<Record<string, cloudwatch.Alarm>>;
  /** The dashboard. */
  public readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    if (props.alarmTopicArn) {
      this.alarmTopic = sns.Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn);
    } else if (props.alarmEmail) {
      const topic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Mailroom alarms', enforceSSL: true });
      // enforceSSL writes the topic's policy, which replaces SNS's default one: without this Allow,
      // CloudWatch may not publish and no alarm reaches anyone. Only this account's alarms may.
      const stack = Stack.of(this);
      topic.addToResourcePolicy(
        new iam.PolicyStatement({
          sid: 'AllowCloudWatchAlarms',
          principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [topic.topicArn],
          conditions: {
            StringEquals: { 'aws:SourceAccount': stack.account },
            ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
          },
        }),
      );
      topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
      NagSuppressions.addResourceSuppressions(topic, [
        { id: 'AwsSolutions-SNS2', reason: 'Alarm notifications carry alarm names and states only; a KMS key would add a cost and a key policy for CloudWatch.' },
      ]);
      this.alarmTopic = topic;
    }

    const alarms: Record<string, cloudwatch.Alarm> = {};
    for (const [name, alarm] of Object.entries(props.deadLetterAlarms)) alarms[`dlq:${name}`] = alarm;

    for (const [name, fn] of Object.entries(props.backgroundFunctions)) {
      // Records that fail are reported as partial batch failures, not as errors: an error here is a
      // whole invocation that crashed or timed out.
      alarms[`errors:${name}`] = new cloudwatch.Alarm(this, `${pascal(name)}Errors`, {
        alarmDescription: `${name} failed whole invocations (a crash or a timeout) in the last 5 minutes`,
        metric: fn.function.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }

    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };
    alarms['api-5xx'] = new cloudwatch.Alarm(this, 'Api5xxRate', {
      alarmDescription: `More than ${API_5XX_PERCENT_ALARM}% of the API's answers were 5xx in two 5-minute periods running (judged from ${API_5XX_MIN_REQUESTS} requests)`,
      metric: new cloudwatch.MathExpression({
        expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: { errors: props.api.httpApi.metricServerError(fiveMinutes), requests: props.api.httpApi.metricCount(fiveMinutes) },
        period: Duration.minutes(5),
        label: 'API 5xx (%)',
      }),
      threshold: API_5XX_PERCENT_ALARM,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });

    const reputation = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, period: Duration.hours(1), statistic: 'Maximum' });
    alarms['ses-bounce-rate'] = new cloudwatch.Alarm(this, 'SesBounceRate', {
      alarmDescription: `The account's SES bounce rate passed ${BOUNCE_RATE_ALARM * 100}% (SES reviews the account at 5%)`,
      metric: reputation('Reputation.BounceRate'),
      threshold: BOUNCE_RATE_ALARM,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarms['ses-complaint-rate'] = new cloudwatch.Alarm(this, 'SesComplaintRate', {
      alarmDescription: `The account's SES complaint rate passed ${COMPLAINT_RATE_ALARM * 100}% (SES reviews the account at 0.1%)`,
      metric: reputation('Reputation.ComplaintRate'),
      threshold: COMPLAINT_RATE_ALARM,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.alarms = alarms;

    if (this.alarmTopic) {
      const action = new actions.SnsAction(this.alarmTopic);
      for (const alarm of Object.values(alarms)) {
        alarm.addAlarmAction(action);
        alarm.addOkAction(action);
      }
    }

    this.dashboard = this.buildDashboard(props, alarms);
  }

  private buildDashboard(props: MonitoringProps, alarms: Record<string, cloudwatch.Alarm>): cloudwatch.Dashboard {
    const minute = Duration.minutes(1);
    const api = props.api.httpApi;
    const mail = (metric: MailMetric) =>
      new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName: metric, dimensionsMap: { service: METRICS_SERVICE }, statistic: 'Sum', period: Duration.minutes(5), label: metric });
    const queues = Object.entries(props.queues);
    const fns = Object.entries(props.backgroundFunctions);
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'API requests and 5xx', left: [api.metricCount({ period: minute, label: 'requests' })], right: [api.metricServerError({ period: minute, label: '5xx' }), api.metricClientError({ period: minute, label: '4xx' })], width: 8 }),
      new cloudwatch.GraphWidget({
        title: 'API latency (ms)',
        left: [api.metricLatency({ period: minute, statistic: 'p50', label: 'p50' }), api.metricLatency({ period: minute, statistic: 'p99', label: 'p99' })],
        width: 8,
      }),
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: Object.values(alarms), width: 8, height: 6 }),
    );
    dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Mails (all projects)', left: MAIL_METRICS.map(mail), width: 8 }),
      new cloudwatch.GraphWidget({
        title: 'Sent per project (top 10)',
        left: [
          new cloudwatch.MathExpression({
            expression: `SORT(SEARCH('{${METRICS_NAMESPACE},service,project_id} MetricName="Sent"', 'Sum', 300), SUM, DESC, 10)`,
            label: '',
            period: Duration.minutes(5),
          }),
        ],
        width: 8,
      }),
      new cloudwatch.GraphWidget({
        title: 'SES reputation (account)',
        left: [
          new cloudwatch.Metric({ namespace: 'AWS/SES', metricName: 'Reputation.BounceRate', statistic: 'Maximum', period: Duration.hours(1), label: 'bounce rate' }),
          new cloudwatch.Metric({ namespace: 'AWS/SES', metricName: 'Reputation.ComplaintRate', statistic: 'Maximum', period: Duration.hours(1), label: 'complaint rate' }),
        ],
        leftAnnotations: [
          { value: BOUNCE_RATE_ALARM, label: 'bounce alarm', color: '#d62728' },
          { value: COMPLAINT_RATE_ALARM, label: 'complaint alarm', color: '#ff7f0e' },
        ],
        width: 8,
      }),
    );
    dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Queue depth (visible messages)', left: queues.map(([name, q]) => q.metricApproximateNumberOfMessagesVisible({ period: minute, statistic: 'Maximum', label: name })), width: 12 }),
      new cloudwatch.GraphWidget({ title: 'Oldest message age (s)', left: queues.map(([name, q]) => q.metricApproximateAgeOfOldestMessage({ period: minute, statistic: 'Maximum', label: name })), width: 12 }),
    );
    dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Background errors', left: fns.map(([name, fn]) => fn.function.metricErrors({ period: minute, label: name })), width: 12 }),
      new cloudwatch.GraphWidget({ title: 'Background duration p99 (ms)', left: fns.map(([name, fn]) => fn.function.metricDuration({ period: minute, statistic: 'p99', label: name })), width: 12 }),
    );
    return dashboard;
  }
}
