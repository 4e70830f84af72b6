import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { MailerError, type Mailer, type MailerFailureKind, type OutgoingMail } from '../ports';

/** Mailer port over SES v2 `SendEmail` with raw content and the project's configuration set. */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly configurationSet?: string,
  ) {}

  async sendRaw(mail: OutgoingMail): Promise<{ messageId: string }> {
    try {
      const out = await this.client.send(
        new SendEmailCommand({
          FromEmailAddress: mail.from,
          Destination: { ToAddresses: [...mail.recipients] },
          Content: { Raw: { Data: mail.raw } },
          ConfigurationSetName: this.configurationSet,
          EmailTags: Object.entries(mail.tags).map(([Name, Value]) => ({ Name, Value })),
        }),
      );
      if (!out.MessageId) throw new MailerError('transient', 'SES answered without a MessageId');
      return { messageId: out.MessageId };
    } catch (error) {
      if (error instanceof MailerError) throw error;
      throw new MailerError(classifySesError(error), (error as Error | undefined)?.message ?? 'SES error', { cause: error });
    }
  }
}

/** Sorts an SES v2 error into retry-or-fail classes; unknown errors count as transient. */
export function classifySesError(error: unknown): MailerFailureKind {
  const e = (error ?? {}) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const message = e.message ?? '';
  if (/daily message quota/i.test(message)) return 'quota_exceeded';
  switch (e.name) {
    case 'TooManyRequestsException':
    case 'ThrottlingException':
    case 'Throttling':
    case 'LimitExceededException':
      return 'throttled';
    case 'MailFromDomainNotVerifiedException':
      return 'sender_not_verified';
    case 'MessageRejected':
    case 'BadRequestException':
    case 'AccountSuspendedException':
    case 'SendingPausedException':
    case 'NotFoundException':
      return /not verified/i.test(message) ? 'sender_not_verified' : 'rejected';
    default:
      break;
  }
  const status = e.$metadata?.httpStatusCode;
  if (status === 429) return 'throttled';
  if (status !== undefined && status >= 400 && status < 500) return 'rejected';
  return 'transient';
}
