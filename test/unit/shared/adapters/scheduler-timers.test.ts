import { ConflictException, CreateScheduleCommand, SchedulerClient, ValidationException } from '@aws-sdk/client-scheduler';
import { GetAccountCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { SesAccount } from '../../../../shared/platform/adapters/ses-account';
import { mockClient } from 'aws-sdk-client-mock';
import { atExpression, SchedulerTimers } from '../../../../shared/platform/adapters/scheduler-timers';

const scheduler = mockClient(SchedulerClient);
const timers = new SchedulerTimers(new SchedulerClient({ region: 'eu-west-1' }), () => ({ queueArn: 'arn:aws:sqs:eu-west-1:1:campaigns', roleArn: 'arn:aws:iam::1:role/timers' }));
afterEach(() => scheduler.reset());

describe('one-time timers on EventBridge Scheduler', () => {
  const at = new Date('2026-03-02T09:30:00.250Z');
  const message = { v: 1, kind: 'step', campaign_id: 'c1', project_id: 'p1', step: 3 };

  test('a timer is an at() schedule in UTC, deleted once fired, whose target is the queue with the message as input', async () => {
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn' });
    await timers.fireAt('campaign-c1-step-3', at, 'campaigns', message);
    expect(scheduler.commandCalls(CreateScheduleCommand)[0].args[0].input).toEqual({
      Name: 'campaign-c1-step-3',
      ScheduleExpression: 'at(2026-03-02T09:30:00)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: 'arn:aws:sqs:eu-west-1:1:campaigns', RoleArn: 'arn:aws:iam::1:role/timers', Input: JSON.stringify(message) },
    });
    expect(atExpression(at)).toBe('at(2026-03-02T09:30:00)');
  });

  test('setting a name already taken (a replayed step) is the same timer: no error', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    await expect(timers.fireAt('campaign-c1-step-3', at, 'campaigns', message)).resolves.toBeUndefined();
  });

  test('any other refusal is an error (the step is retried)', async () => {
    scheduler.on(CreateScheduleCommand).rejects(new ValidationException({ message: 'bad', Message: 'bad', $metadata: {} }));
    await expect(timers.fireAt('campaign-c1-step-3', at, 'campaigns', message)).rejects.toThrow('bad');
  });
});

describe('the SES account rate', () => {
  const ses = mockClient(SESv2Client);
  afterEach(() => ses.reset());

  test('is read with GetAccount once and kept five minutes per warm instance', async () => {
    ses.on(GetAccountCommand).resolves({ SendQuota: { MaxSendRate: 200, Max24HourSend: 1e6, SentLast24Hours: 0 } });
    let now = 0;
    const account = new SesAccount(new SESv2Client({ region: 'eu-west-1' }), () => now);
    expect(await account.maxSendRate()).toBe(200);
    now = 5 * 60_000 - 1;
    expect(await account.maxSendRate()).toBe(200);
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(1);
    now = 5 * 60_000;
    await account.maxSendRate();
    expect(ses.commandCalls(GetAccountCommand)).toHaveLength(2);
  });
});
