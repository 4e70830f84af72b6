import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { MailerError, type OutgoingMail } from '../../../../shared/platform/core/ports';
import { SesMailer, classifySesError } from '../../../../shared/platform/adapters/ses-mailer';

const ses = mockClient(SESv2Client);

afterEach(() => {
  ses.reset();
});

afterAll(() => {
  ses.restore();
});

const mail = (): OutgoingMail => ({
  raw: Buffer.from('From: a@example.com\r\nTo: b@example.com\r\nSubject: hi\r\n\r\nhello'),
  from: 'a@example.com',
  recipients: ['b@example.com', 'cc@example.com', 'bcc@example.com'],
  tags: { activity_id: 'act-1', project_id: 'proj-1' },
});

/** An error shaped like the ones the SDK throws. */
function sdkError(name: string, message = name, httpStatusCode?: number): Error {
  const error = new Error(message) as Error & { $metadata?: { httpStatusCode?: number } };
  error.name = name;
  if (httpStatusCode !== undefined) error.$metadata = { httpStatusCode };
  return error;
}

describe('SesMailer.sendRaw', () => {
  test('sends the raw message with sender, every recipient, configuration set and tags; returns the MessageId', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'ses-message-1' });
    const m = mail();
    const result = await new SesMailer(new SESv2Client({ region: 'eu-west-1' }), 'mailroom-events').sendRaw(m);

    expect(result).toEqual({ messageId: 'ses-message-1' });
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0].args[0].input;
    expect(Buffer.from(input.Content?.Raw?.Data as Uint8Array).equals(m.raw)).toBe(true);
    expect(input.FromEmailAddress).toBe('a@example.com');
    expect(input.Destination?.ToAddresses).toEqual(['b@example.com', 'cc@example.com', 'bcc@example.com']);
    expect(input.ConfigurationSetName).toBe('mailroom-events');
    expect(input.EmailTags).toEqual(
      expect.arrayContaining([
        { Name: 'activity_id', Value: 'act-1' },
        { Name: 'project_id', Value: 'proj-1' },
      ]),
    );
    expect(input.EmailTags).toHaveLength(2);
  });

  test('without a configuration set none is sent', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm' });
    await new SesMailer(new SESv2Client({ region: 'eu-west-1' })).sendRaw(mail());
    expect(ses.commandCalls(SendEmailCommand)[0].args[0].input.ConfigurationSetName).toBeUndefined();
  });

  test('an answer without MessageId is a transient MailerError', async () => {
    ses.on(SendEmailCommand).resolves({});
    const error = await new SesMailer(new SESv2Client({ region: 'eu-west-1' })).sendRaw(mail()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe('transient');
  });

  test.each<[string, MailerError['kind'], Error]>([
    ['TooManyRequestsException', 'throttled', sdkError('TooManyRequestsException', 'Too many requests', 429)],
    ['LimitExceededException', 'throttled', sdkError('LimitExceededException', 'Maximum sending rate exceeded.')],
    ['MessageRejected', 'rejected', sdkError('MessageRejected', 'Email address is blacklisted.', 400)],
    ['MailFromDomainNotVerifiedException', 'sender_not_verified', sdkError('MailFromDomainNotVerifiedException', 'MAIL FROM not set up', 400)],
    ['daily quota', 'quota_exceeded', sdkError('LimitExceededException', 'Daily message quota exceeded.')],
    ['HTTP 500 (unknown name)', 'transient', sdkError('InternalFailure', 'boom', 500)],
  ])('a %s failure throws a MailerError of kind %s', async (_, kind, failure) => {
    ses.on(SendEmailCommand).rejects(failure);
    const error = await new SesMailer(new SESv2Client({ region: 'eu-west-1' })).sendRaw(mail()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailerError);
    expect((error as MailerError).kind).toBe(kind);
    expect((error as MailerError).message).toBe(failure.message);
    expect((error as MailerError).cause).toBe(failure);
  });
});

describe('classifySesError', () => {
  test.each(['TooManyRequestsException', 'LimitExceededException', 'ThrottlingException'])('%s -> throttled', (name) => {
    expect(classifySesError(sdkError(name))).toBe('throttled');
  });

  test('MessageRejected -> rejected', () => {
    expect(classifySesError(sdkError('MessageRejected', 'Email address is blacklisted.'))).toBe('rejected');
  });

  test('MailFromDomainNotVerifiedException -> sender_not_verified', () => {
    expect(classifySesError(sdkError('MailFromDomainNotVerifiedException', 'The MAIL FROM domain is not set up'))).toBe(
      'sender_not_verified',
    );
  });

  test('MessageRejected whose message says "not verified" -> sender_not_verified', () => {
    expect(
      classifySesError(sdkError('MessageRejected', 'Email address is not verified. The following identities failed the check')),
    ).toBe('sender_not_verified');
  });

  test("a message containing 'Daily message quota exceeded' -> quota_exceeded, whatever the name", () => {
    expect(classifySesError(sdkError('LimitExceededException', 'Daily message quota exceeded.'))).toBe('quota_exceeded');
    expect(classifySesError(sdkError('SomethingElse', 'Throttling failure: Daily message quota exceeded.'))).toBe('quota_exceeded');
  });

  test('$metadata.httpStatusCode 500 -> transient', () => {
    expect(classifySesError(sdkError('InternalFailure', 'Internal error', 500))).toBe('transient');
  });

  test('an unknown name -> transient', () => {
    expect(classifySesError(sdkError('SomeNewException', 'what'))).toBe('transient');
  });

  test('a network error without metadata -> transient', () => {
    expect(classifySesError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe('transient');
  });

  test('an unknown 429 -> throttled and an unknown 4xx -> rejected', () => {
    expect(classifySesError(sdkError('Unnamed', 'x', 429))).toBe('throttled');
    expect(classifySesError(sdkError('Unnamed', 'x', 403))).toBe('rejected');
  });

  test('a plain object without name or metadata is transient', () => {
    expect(classifySesError({})).toBe('transient');
  });
});

describe('classifySesError with no error object', () => {
  test.each([undefined, null])('%p counts as transient instead of throwing', (value) => {
    expect(classifySesError(value)).toBe('transient');
  });
});
