import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';

/**
 * The local mailbox simulator: for every mail the local SES accepts it publishes the events SES
 * would, in SES's own JSON (as SNS raw delivery puts them on the queue), through the same queue
 * and handler as in AWS. Every mail yields Send and Delivery; Amazon's simulator addresses behave
 * as SES documents them: bounce@ a permanent bounce, complaint@ a delivery then a complaint,
 * ooto@ a delivery then a delivery delay, suppressionlist@ a bounce with subtype
 * OnAccountSuppressionList, success@ a plain delivery. Any other simulator address yields only Send
 * (a mail that is still on its way), which tests use to feed events of their own.
 */
const SIMULATOR = /@simulator\.amazonses\.com$/i;

/** The parts of an SES v2 SendEmail request the simulator reads. */
export interface SentRequest {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  EmailTags?: { Name: string; Value: string }[];
  ConfigurationSetName?: string;
}

type SesEvent = Record<string, unknown>;

/** The SES events a sent mail produces, in the order SES would publish them. */
export function simulatedEvents(request: SentRequest, messageId: string, at: Date): SesEvent[] {
  const recipients = [...(request.Destination?.ToAddresses ?? []), ...(request.Destination?.CcAddresses ?? []), ...(request.Destination?.BccAddresses ?? [])].map(
    (r) => r.toLowerCase(),
  );
  const tags: Record<string, string[]> = { 'ses:configuration-set': [request.ConfigurationSetName ?? 'local'] };
  for (const tag of request.EmailTags ?? []) tags[tag.Name] = [tag.Value];
  const stamp = (ms: number) => new Date(at.getTime() + ms).toISOString();
  const mail = {
    timestamp: stamp(0),
    source: request.FromEmailAddress ?? '',
    sourceArn: `arn:aws:ses:us-east-1:000000000000:identity/${(request.FromEmailAddress ?? '').split('@')[1] ?? ''}`,
    sendingAccountId: '000000000000',
    messageId,
    destination: recipients,
    headersTruncated: false,
    tags,
  };
  const local = (r: string) => r.split('@')[0];
  const delivered = recipients.filter((r) => !SIMULATOR.test(r) || ['complaint', 'ooto', 'success'].includes(local(r)));
  const events: SesEvent[] = [{ eventType: 'Send', mail, send: {} }];
  if (delivered.length > 0) {
    events.push({
      eventType: 'Delivery',
      mail,
      delivery: { timestamp: stamp(400), processingTimeMillis: 400, recipients: delivered, smtpResponse: '250 2.6.0 Message received', reportingMTA: 'a8-1.smtp-out.amazonses.com' },
    });
  }
  for (const r of recipients.filter((x) => SIMULATOR.test(x))) {
    switch (local(r)) {
      case 'bounce':
        events.push(bounce(mail, r, stamp(500), 'General', 'smtp; 550 5.1.1 user unknown'));
        break;
      case 'suppressionlist':
        events.push(bounce(mail, r, stamp(500), 'OnAccountSuppressionList', 'Amazon SES has suppressed sending to this address because it is on the account-level suppression list.'));
        break;
      case 'complaint':
        events.push({
          eventType: 'Complaint',
          mail,
          complaint: { complainedRecipients: [{ emailAddress: r }], timestamp: stamp(900), feedbackId: `${messageId}-complaint`, complaintFeedbackType: 'abuse', arrivalDate: stamp(900) },
        });
        break;
      case 'ooto':
        events.push({
          eventType: 'DeliveryDelay',
          mail,
          deliveryDelay: {
            timestamp: stamp(700),
            delayType: 'MailboxFull',
            expirationTime: stamp(86_400_000),
            delayedRecipients: [{ emailAddress: r, status: '4.2.2', diagnosticCode: 'smtp; 452 4.2.2 Out of office: the mailbox is not taking mail now' }],
          },
        });
        break;
      default:
        break;
    }
  }
  return events;
}

function bounce(mail: Record<string, unknown>, recipient: string, timestamp: string, subType: string, diagnostic: string): SesEvent {
  return {
    eventType: 'Bounce',
    mail,
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: subType,
      bouncedRecipients: [{ emailAddress: recipient, action: 'failed', status: '5.1.1', diagnosticCode: diagnostic }],
      timestamp,
      feedbackId: `${String(mail.messageId)}-bounce`,
      reportingMTA: 'dsn; a8-1.smtp-out.amazonses.com',
    },
  };
}

/** Publishes a sent mail's simulated events to the SES events queue. */
export async function publishSimulatedEvents(sqs: SQSClient, queueUrl: string, request: SentRequest, messageId: string): Promise<void> {
  for (const event of simulatedEvents(request, messageId, new Date())) {
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(event) }));
  }
}
