import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { MailerError, type Mailer, type MailerFailureKind, type OutgoingMail } from '../core/ports';

/** SES control headers (`X-SES-CONFIGURATION-SET`, `X-SES-MESSAGE-TAGS`...) in a raw message's header block. */
function sesControlHeaders(raw: Uint8Array): string[] {
  const text = Buffer.from(raw).toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const block = end < 0 ? text : text.slice(0, end);
  return [...block.matchAll(/^(x-ses-[^:\s]*)\s*:/gim)].map((m) => m[1]);
}

/**
 * Mailer port over SES v2 `SendEmail` with raw content. The configuration set (which feeds bounces,
 * complaints and suppression) and the tags are parameters of the call; a message carrying SES
 * control headers, which could override them, is refused before it reaches SES.
 */
export class SesMailer implements Mailer {
  constructor(
    private readonly client: SESv2Client,
    private readonly configurationSet?: string,
  ) {}

  async sendRaw(mail: OutgoingMail): Promise<{ messageId: string }> {
    const control = sesControlHeaders(mail.raw);
    if (control.length > 0) throw new MailerError('rejected', `The message carries SES control headers: ${control.join(', ')}`);
    try {
      const out = await this.client.send(
        new SendEmailCommand({
          FromEmailAddress: mail.from,
          Destination: { ToAddresses: [...mail.recipients] },
          Content: { Raw: { Data: mail.raw } },
          ConfigurationSetName: this.configurationSet,
          // SES refuses the send unless the identity and the configuration set are the tenant's.
          ...(mail.tenantName ? { TenantName: mail.tenantName } : {}),
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
