import { App, Aspects } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { EmailApiStack } from '../../lib/email-api-stack';
import { BOUNCE_RATE_ALARM, COMPLAINT_RATE_ALARM } from '../../lib/monitoring';
import { MAIL_METRICS, METRICS_NAMESPACE } from '../../shared/mail-pipeline/metrics/metric-names';
import { queues, type QueueName } from '../../shared/platform/core/queues';
import { schedules, workers } from '../../shared/platform/core/routes';
import { logicalId, nagErrors } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about alarms and the dashboard, not code.
function synth(context: Record<string, string> = {}): { stack: EmailApiStack; template: Template } {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new EmailApiStack(app, 'Monitored', { env: { account: '123456789012', region: 'eu-west-1' }, inboundDomain: 'in.mail.test' });
  Aspects.of(stack).add(new AwsSolutionsChecks());
  return { stack, template: Template.fromStack(stack) };
}

const queueNames = Object.keys(queues) as QueueName[];
const backgroundNames = [...Object.keys(workers), ...Object.keys(schedules), 'inbound'];
/** The queues' dead-letter queues and the inbound function's failure queue. */
const deadLetterCount = queueNames.length + 1;

let plain: { stack: EmailApiStack; template: Template };
let mailed: { stack: EmailApiStack; template: Template };

beforeAll(() => {
  plain = synth();
  mailed = synth({ alarmEmail: 'ops@example.com' });
});

function alarms(template: Template): Record<string, { Properties: Record<string, unknown> }> {
  return template.findResources('AWS::CloudWatch::Alarm') as Record<string, { Properties: Record<string, unknown> }>;
}

describe('alarms', () => {
  it.each(queueNames)('%s: alarms when a message lands in its dead-letter queue', (name) => {
    const { stack, template } = plain;
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalId(stack.queues.deadLetterQueues[name]), 'QueueName'] } }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    expect(stack.monitoring.alarms[`dlq:${name}`]).toBe(stack.queues.deadLetterAlarms[name]);
  });

  it.each(backgroundNames)('%s: alarms when a whole invocation fails', (name) => {
    const { stack, template } = plain;
    const fn = name === 'inbound' ? stack.inbound!.function : (stack.workers.functions as Record<string, typeof stack.scheduling.functions[string]>)[name] ?? stack.scheduling.functions[name];
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalId(fn.function) } }],
      Statistic: 'Sum',
      Period: 300,
      Threshold: 0,
    });
  });

  it("alarms on the API's 5xx rate, judged only with enough requests", () => {
    const { stack, template } = plain;
    const apiId = { Ref: logicalId(stack.api.httpApi) };
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Threshold: 1,
      EvaluationPeriods: 2,
      Metrics: Match.arrayWith([
        Match.objectLike({ Expression: 'IF(requests >= 20, 100 * errors / requests, 0)' }),
        Match.objectLike({ Id: 'errors', MetricStat: Match.objectLike({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: [{ Name: 'ApiId', Value: apiId }] } }) }),
        Match.objectLike({ Id: 'requests', MetricStat: Match.objectLike({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: [{ Name: 'ApiId', Value: apiId }] } }) }),
      ]),
    });
  });

  it("alarms before the account's bounce and complaint rates reach SES's review levels (5%, 0.1%)", () => {
    const { template } = plain;
    expect(BOUNCE_RATE_ALARM).toBeLessThan(0.05);
    expect(COMPLAINT_RATE_ALARM).toBeLessThan(0.001);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Threshold: 0.04, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate', Threshold: 0.0008, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('has exactly the alarms above: one per dead-letter queue (and the inbound failure queue), one per background function, the 5xx rate and the two SES rates', () => {
    expect(Object.keys(alarms(plain.template))).toHaveLength(deadLetterCount + backgroundNames.length + 3);
    expect(Object.keys(plain.stack.monitoring.alarms)).toHaveLength(deadLetterCount + backgroundNames.length + 3);
  });

  it('notifies nobody without alarmEmail or alarmTopicArn, and creates no topic for it', () => {
    for (const alarm of Object.values(alarms(plain.template))) expect(alarm.Properties.AlarmActions).toBeUndefined();
    expect(plain.stack.monitoring.alarmTopic).toBeUndefined();
    expect(Object.keys(plain.template.findOutputs('AlarmTopicArn'))).toEqual([]);
  });

  it('with -c alarmEmail=…: a topic with that address subscribed, notified by every alarm on alarm and back to OK', () => {
    const { stack, template } = mailed;
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    const topic = { Ref: logicalId(stack.monitoring.alarmTopic as never) };
    const all = Object.values(alarms(template));
    expect(all).toHaveLength(deadLetterCount + backgroundNames.length + 3);
    for (const alarm of all) {
      expect(alarm.Properties.AlarmActions).toEqual([topic]);
      expect(alarm.Properties.OKActions).toEqual([topic]);
    }
    template.hasOutput('AlarmTopicArn', { Value: topic });
  });

  it('with -c alarmTopicArn=…: every alarm notifies that topic, and no topic is created', () => {
    const arn = 'arn:aws:sns:eu-west-1:123456789012:on-call';
    const { template } = synth({ alarmTopicArn: arn, alarmEmail: 'ignored@example.com' });
    template.resourceCountIs('AWS::SNS::Subscription', 1); // the SES events topic's queue subscription only
    for (const alarm of Object.values(alarms(template))) expect(alarm.Properties.AlarmActions).toEqual([arn]);
  });

  it('refuses a malformed alarmEmail or alarmTopicArn at synth', () => {
    expect(() => synth({ alarmEmail: 'not an address' })).toThrow('alarmEmail must be one email address; got "not an address"');
    expect(() => synth({ alarmTopicArn: 'on-call' })).toThrow(/alarmTopicArn must be an SNS topic ARN/);
  });

  it('leaves no unsuppressed cdk-nag error', () => {
    expect(nagErrors(mailed.stack)).toEqual([]);
  });
});

describe('per-project metrics (-c projectMetrics)', () => {
  const metricWorkers = ['send-worker', 'batch-send-worker', 'ses-events'] as const;
  /** Logical ids of the functions given PROJECT_METRICS, with its value. */
  function projectMetricsSettings(template: Template): Record<string, string> {
    const fns = template.findResources('AWS::Lambda::Function');
    return Object.fromEntries(
      Object.entries(fns)
        .filter(([, f]) => f.Properties.Environment?.Variables?.PROJECT_METRICS !== undefined)
        .map(([id, f]) => [id, f.Properties.Environment.Variables.PROJECT_METRICS as string]),
    );
  }

  it('are on by default: no function is given PROJECT_METRICS', () => {
    expect(projectMetricsSettings(plain.template)).toEqual({});
  });

  it('-c projectMetrics=false turns them off in the three workers that write mail metrics, and only there', () => {
    const { stack, template } = synth({ projectMetrics: 'false' });
    expect(projectMetricsSettings(template)).toEqual(Object.fromEntries(metricWorkers.map((w) => [logicalId(stack.workers.functions[w].function), 'off'])));
  });

  it('refuses anything but true or false', () => {
    expect(() => synth({ projectMetrics: 'maybe' })).toThrow('projectMetrics must be true or false; got "maybe"');
  });
});

describe('the dashboard', () => {
  function body(template: Template): string {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard'));
    return JSON.stringify(dashboard.Properties.DashboardBody);
  }

  it('shows API requests, latency and 5xx', () => {
    const text = body(plain.template);
    for (const metric of ['"Count"', '"Latency"', '"5xx"']) expect(text).toContain(`AWS/ApiGateway\\",${metric.replace(/"/g, '\\"')}`);
  });

  it('shows the depth and the oldest message age of every queue', () => {
    const text = body(plain.template);
    for (const name of queueNames) {
      expect(text).toContain(`\\"label\\":\\"${name}\\"`);
    }
    expect(text).toContain('ApproximateNumberOfMessagesVisible');
    expect(text).toContain('ApproximateAgeOfOldestMessage');
  });

  it('shows the errors and durations of every background function', () => {
    const text = body(plain.template);
    for (const name of backgroundNames) expect(text).toContain(`\\"label\\":\\"${name}\\"`);
    expect(text).toContain('\\"Errors\\"');
    expect(text).toContain('\\"Duration\\"');
  });

  it("shows the workers' mail metrics, per project too, and the SES reputation", () => {
    const text = body(plain.template);
    for (const metric of MAIL_METRICS) expect(text).toContain(`\\"${METRICS_NAMESPACE}\\",\\"${metric}\\"`);
    expect(text).toContain(`SEARCH('{${METRICS_NAMESPACE},service,project_id} MetricName=\\\\\\"Sent\\\\\\"'`);
    expect(text).toContain('Reputation.BounceRate');
    expect(text).toContain('Reputation.ComplaintRate');
  });

  it('is named in the outputs', () => {
    plain.template.hasOutput('DashboardName', { Value: { Ref: logicalId(plain.stack.monitoring.dashboard) } });
  });
});
