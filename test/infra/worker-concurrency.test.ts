import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { EmailApiStack } from '../../lib/email-api-stack';
import { ACCOUNT_CONCURRENCY, QueueWorker, QUEUE_WORKERS_CONCURRENCY_BUDGET, WORKER_MAX_CONCURRENCY } from '../../lib/queue-worker';
import { queues, type QueueName } from '../../shared/platform/core/queues';
import { logicalId } from './template-helpers';

// Bundling is skipped (`aws:cdk:bundling-stacks`): this file is about the event source mappings.
let stack: EmailApiStack;
let mappings: { Properties: { EventSourceArn: unknown; ScalingConfig?: { MaximumConcurrency?: number } } }[];

beforeAll(() => {
  stack = new EmailApiStack(new App({ context: { 'aws:cdk:bundling-stacks': [], inboundDomain: 'in.mail.test' } }), 'Concurrency', {
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  mappings = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::EventSourceMapping')) as typeof mappings;
});

describe('queue workers keep a share of the account concurrency for the API', () => {
  it('every SQS event source mapping has ScalingConfig.MaximumConcurrency, within Lambda\'s 2 to 1,000', () => {
    expect(mappings.length).toBe(Object.keys(queues).length);
    for (const m of mappings) {
      expect(m.Properties.ScalingConfig?.MaximumConcurrency).toEqual(expect.any(Number));
      expect(m.Properties.ScalingConfig!.MaximumConcurrency).toBeGreaterThanOrEqual(2);
      expect(m.Properties.ScalingConfig!.MaximumConcurrency).toBeLessThanOrEqual(1000);
    }
  });

  it.each(Object.keys(queues) as QueueName[])('%s: its worker gets the maximum chosen for its work', (name) => {
    const mapping = mappings.find((m) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify({ 'Fn::GetAtt': [logicalId(stack.queues.queues[name]), 'Arn'] }));
    expect(mapping?.Properties.ScalingConfig?.MaximumConcurrency).toBe(WORKER_MAX_CONCURRENCY[name]);
  });

  it(`together they stay within ${QUEUE_WORKERS_CONCURRENCY_BUDGET} of the account's default ${ACCOUNT_CONCURRENCY}: the API keeps the rest`, () => {
    const sum = mappings.reduce((total, m) => total + m.Properties.ScalingConfig!.MaximumConcurrency!, 0);
    expect(sum).toBeLessThanOrEqual(QUEUE_WORKERS_CONCURRENCY_BUDGET);
    expect(ACCOUNT_CONCURRENCY - QUEUE_WORKERS_CONCURRENCY_BUDGET).toBeGreaterThanOrEqual(ACCOUNT_CONCURRENCY / 2);
  });

  it('a worker whose maximum is outside Lambda\'s range fails the synth', () => {
    const app = new App();
    for (const maxConcurrency of [1, 1001, 2.5]) {
      expect(() => new QueueWorker(app, `Bad${String(maxConcurrency).replace('.', '')}`, { definition: queues.send, maxConcurrency })).toThrow(/maxConcurrency must be a whole number from 2 to 1000/);
    }
  });
});
