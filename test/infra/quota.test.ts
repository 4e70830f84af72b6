import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { logicalId } from './template-helpers';

// Bundling is skipped here (`aws:cdk:bundling-stacks`): this file is about environment variables, not code.
const stackOf = (props: ConstructorParameters<typeof EmailApiStack>[2] = {}, context: Record<string, unknown> = {}) =>
  new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'Quota', props);
const synth = (props: ConstructorParameters<typeof EmailApiStack>[2] = {}, context: Record<string, unknown> = {}) => Template.fromStack(stackOf(props, context));

/** The environment variables of every service function (those that read the table). */
function serviceEnvironments(template: Template): Record<string, unknown>[] {
  const fns = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME);
  expect(fns.length).toBeGreaterThan(5);
  return fns.map((f) => f.Properties.Environment.Variables as Record<string, unknown>);
}

describe('defaultMonthlyQuota (DEFAULT_MONTHLY_QUOTA)', () => {
  /** The DEFAULT_MONTHLY_QUOTA of every function that has one. */
  const quotas = (template: Template) => serviceEnvironments(template).map((env) => env.DEFAULT_MONTHLY_QUOTA).filter((v) => v !== undefined);

  it('passes the prop to the send workers (single and batch), which enforce it, and to no function that does not read it', () => {
    const stack = stackOf({ defaultMonthlyQuota: 10_000 });
    const template = Template.fromStack(stack);
    const sendWorker = template.findResources('AWS::Lambda::Function')[logicalId(stack.workers.functions['send-worker'].function)];
    expect(sendWorker.Properties.Environment.Variables.DEFAULT_MONTHLY_QUOTA).toBe('10000');
    expect(quotas(template)).toEqual(['10000', '10000']);
  });

  it('takes the `defaultMonthlyQuota` context (`cdk deploy -c defaultMonthlyQuota=0`) when the prop is absent', () => {
    expect(quotas(synth({}, { defaultMonthlyQuota: '0' }))).toEqual(['0', '0']);
  });

  it('sets nothing without either: projects without their own quota are unlimited', () => {
    for (const env of serviceEnvironments(synth())) expect(env).not.toHaveProperty('DEFAULT_MONTHLY_QUOTA');
  });

  it.each([[-1], [2.5], ['lots']])('fails the synth for %p', (value) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], defaultMonthlyQuota: value } });
    expect(() => new EmailApiStack(app, 'Bad')).toThrow(/defaultMonthlyQuota must be a whole number of emails/);
  });
});
