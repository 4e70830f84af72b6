import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { ServiceResources } from '../../lib/access';
import { Queues } from '../../lib/queues';
import { rateExpression, Scheduling, type ScheduledJob } from '../../lib/scheduling';
import { TokenSecret } from '../../lib/secrets';
import { SesSending } from '../../lib/ses';
import { Storage } from '../../lib/storage';
import { allows, logicalId, nagErrors, statementsOfRole } from './template-helpers';

const entry = 'test/infra/fixtures/scheduled-job.ts';
const access = { table: 'readWrite' } as const;
const jobs: Record<string, ScheduledJob> = {
  'every-30-seconds': { entry, everySeconds: 30, access },
  'every-90-seconds': { entry, everySeconds: 90, access },
  'every-5-minutes': { entry, everySeconds: 300, access },
};

function buildStack(scheduled: Record<string, ScheduledJob>): { stack: Stack; scheduling: Scheduling } {
  const app = new App();
  const stack = new Stack(app, 'SchedulingTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const storage = new Storage(stack, 'Storage');
  const resources: ServiceResources = {
    table: storage.table,
    payloadBucket: storage.payloadBucket,
    queues: new Queues(stack, 'Queues').queues,
    tokenSecret: new TokenSecret(stack, 'TokenSecret').secret,
    ses: new SesSending(stack, 'Ses', { deployment: storage.table.tableName }),
    settings: { SERVICE_NAME: 'Mailroom', INBOUND_DOMAIN: 'reply.example.com' },
  };
  const scheduling = new Scheduling(stack, 'Scheduling', { resources, jobs: scheduled });
  Aspects.of(stack).add(new AwsSolutionsChecks());
  return { stack, scheduling };
}

describe('rateExpression', () => {
  it('rounds a period up to whole minutes, one minute at least', () => {
    expect(rateExpression(1)).toBe('rate(1 minute)');
    expect(rateExpression(60)).toBe('rate(1 minute)');
    expect(rateExpression(61)).toBe('rate(2 minutes)');
    expect(rateExpression(3600)).toBe('rate(60 minutes)');
  });

  it('refuses a period that is not positive', () => {
    expect(() => rateExpression(0)).toThrow('Invalid schedule period');
    expect(() => rateExpression(Number.NaN)).toThrow('Invalid schedule period');
  });
});

describe('the scheduling construct, given its jobs', () => {
  // One synthesis (one esbuild bundle per job) for the whole block.
  let stack: Stack;
  let scheduling: Scheduling;
  let template: Template;

  beforeAll(() => {
    ({ stack, scheduling } = buildStack(jobs));
    template = Template.fromStack(stack);
  });

  it('creates one schedule and one function per entry', () => {
    template.resourceCountIs('AWS::Scheduler::Schedule', Object.keys(jobs).length);
    template.resourceCountIs('AWS::Lambda::Function', Object.keys(jobs).length);
  });

  it.each(Object.entries(jobs))('%s: runs at its rate, targeting its own function through the scheduler role', (name, def) => {
    const schedule = template.toJSON().Resources[logicalId(scheduling.schedules[name])];
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: rateExpression(def.everySeconds),
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Target: {
        Arn: { 'Fn::GetAtt': [logicalId(scheduling.functions[name].function), 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [logicalId(scheduling.role!), 'Arn'] },
      },
    });
  });

  it('uses the rates 1, 2 and 5 minutes for 30 s, 90 s and 300 s', () => {
    const expressions = Object.values(template.findResources('AWS::Scheduler::Schedule')).map((s) => s.Properties.ScheduleExpression);
    expect(expressions.sort()).toEqual(['rate(1 minute)', 'rate(2 minutes)', 'rate(5 minutes)']);
  });

  it('lets only EventBridge Scheduler of this account assume the role, to invoke the job functions', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: [
          {
            Action: 'sts:AssumeRole',
            Effect: 'Allow',
            Principal: { Service: 'scheduler.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
          },
        ],
      },
    });
    const statements = statementsOfRole(template, logicalId(scheduling.role!));
    for (const fn of Object.values(scheduling.functions)) {
      expect(allows(statements, 'lambda:InvokeFunction', { 'Fn::GetAtt': [logicalId(fn.function), 'Arn'] })).toBe(true);
    }
  });

  it('leaves no unsuppressed cdk-nag error', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});

describe('the scheduling construct, given no jobs', () => {
  it('creates no schedule, no function and no role', () => {
    const { stack, scheduling } = buildStack({});
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::Scheduler::Schedule', 0);
    template.resourceCountIs('AWS::Lambda::Function', 0);
    expect(scheduling.role).toBeUndefined();
  });
});
