import { checkCall, enforcePolicies, outsideAnyCaller, runAs } from '../../../local/iam/enforce';

// A role that may only receive from the events queue: what webhook-fanout's role allows there.
const queue = 'arn:aws:sqs:us-east-1:000000000000:mailroom-events';
const url = 'http://127.0.0.1:1/000000000000/mailroom-events';
const send = () => checkCall('SQSClient', 'SendMessageCommand', { QueueUrl: url, MessageBody: '{}' });

beforeAll(() => enforcePolicies({ roles: { 'webhook-fanout': [{ Effect: 'Allow', Action: 'sqs:ReceiveMessage', Resource: queue }] }, resourcePolicies: [] }));
afterAll(() => enforcePolicies(undefined));

describe('calls the local cloud makes on its own account (outsideAnyCaller)', () => {
  it('a function may not send to a queue its role does not name', () => {
    expect(() => runAs('webhook-fanout', send)).toThrow('is not authorized to perform: sqs:SendMessage');
  });

  it('the event source sending a late duplicate from inside that function is checked against no role', () => {
    expect(() => runAs('webhook-fanout', () => outsideAnyCaller(send))).not.toThrow();
  });

  it('what runs after it, in the function, is checked again', async () => {
    await expect(
      runAs('webhook-fanout', async () => {
        await outsideAnyCaller(async () => send());
        send();
      }),
    ).rejects.toThrow('is not authorized to perform: sqs:SendMessage');
  });
});
