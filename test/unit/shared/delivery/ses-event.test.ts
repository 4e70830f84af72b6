import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryEvent, parseSesMessage } from '../../../../shared/mail-pipeline/delivery/ses-event';

/** Samples copied from AWS's documentation; see test/fixtures/ses/SOURCES.md. */
const fixture = (name: string): string => readFileSync(join(__dirname, '../../../fixtures/ses', `${name}.json`), 'utf8');
const record = (name: string): Record<string, any> => JSON.parse(fixture(name));

const ACTIVITY = '7d3f0b8e-2c4a-4e1b-9a6f-0c5d8e2b1a34';
const PROJECT = 'b1e2c3d4-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const MESSAGE = 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000';
const KEY = expect.stringMatching(/^[0-9a-f]{64}$/);

/** Every field of the parsed event, nothing more (toStrictEqual also rejects extra keys set to undefined). */
function expectEvent(actual: DeliveryEvent, expected: Omit<DeliveryEvent, 'dedupeKey'>): void {
  expect(actual).toStrictEqual({ ...expected, dedupeKey: KEY });
}

describe('send', () => {
  test('a Send record parses with the mail timestamp and mail.destination as recipients', () => {
    expectEvent(parseSesMessage(fixture('send')), {
      type: 'send',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2016-10-14T05:02:16.645Z',
      recipients: ['recipient@example.com'],
    });
  });
});

describe('delivery', () => {
  test('a Delivery record parses with delivery.timestamp and delivery.recipients', () => {
    expectEvent(parseSesMessage(fixture('delivery')), {
      type: 'delivery',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2016-10-19T23:21:04.133Z',
      recipients: ['recipient@example.com'],
    });
  });

  test('an SNS envelope (raw message delivery off) parses to the same event as the raw record', () => {
    const wrapped = parseSesMessage(fixture('sns-envelope-delivery'));
    expect(wrapped).toStrictEqual(parseSesMessage(fixture('delivery')));
    expect(wrapped.type).toBe('delivery');
  });

  test('recipients are lowercased', () => {
    const r = record('delivery');
    r.delivery.recipients = ['Recipient@Example.COM', 'OTHER@example.com'];
    expect(parseSesMessage(JSON.stringify(r)).recipients).toEqual(['recipient@example.com', 'other@example.com']);
  });
});

describe('bounce', () => {
  test('a Permanent/General bounce parses with bounce.timestamp, bounced recipients and the diagnostic code', () => {
    expectEvent(parseSesMessage(fixture('bounce')), {
      type: 'bounce',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2017-08-05T00:41:02.669Z',
      recipients: ['recipient@example.com'],
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
        diagnostics: 'smtp; 550 5.1.1 user unknown',
      },
    });
  });

  test('a Transient bounce keeps its type and subtype', () => {
    expectEvent(parseSesMessage(fixture('bounce-transient')), {
      type: 'bounce',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2017-08-05T04:40:05.214Z',
      recipients: ['recipient@example.com'],
      bounce: {
        bounceType: 'Transient',
        bounceSubType: 'MailboxFull',
        feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000001',
        diagnostics: 'smtp; 552 5.2.2 Mailbox full',
      },
    });
  });

  test('a Permanent bounce with bounceSubType OnAccountSuppressionList keeps that subtype', () => {
    const event = parseSesMessage(fixture('bounce-on-account-suppression-list'));
    expectEvent(event, {
      type: 'bounce',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2017-08-05T00:40:02.512Z',
      recipients: ['recipient@example.com'],
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'OnAccountSuppressionList',
        feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000002',
        diagnostics: record('bounce-on-account-suppression-list').bounce.bouncedRecipients[0].diagnosticCode,
      },
    });
    expect(event.bounce?.diagnostics).toMatch(/^Amazon SES did not send the message to this address because it is on the suppression list/);
  });

  test('an EventBridge envelope parses to the same event as the raw record', () => {
    expect(parseSesMessage(fixture('eventbridge-bounce'))).toStrictEqual(parseSesMessage(fixture('bounce')));
  });

  test('an EventBridge detail without eventType falls back to the detail-type name', () => {
    const e = record('eventbridge-bounce');
    delete e.detail.eventType;
    expect(parseSesMessage(JSON.stringify(e))).toStrictEqual(parseSesMessage(fixture('bounce')));
  });

  test('an identity notification (notificationType, no tags) parses with only the bounced recipients and no ids', () => {
    expectEvent(parseSesMessage(fixture('notification-bounce')), {
      type: 'bounce',
      messageId: '00000137860315fd-34208509-5b74-41f3-95c5-22c1edc3c924-000000',
      timestamp: '2016-01-27T14:59:38.237Z',
      recipients: ['jane@example.com', 'richard@example.com'],
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        feedbackId: '00000137860315fd-869464a4-8680-4114-98d3-716fe35851f9-000000',
      },
    });
  });

  test('several distinct diagnostic codes are all kept, one per line', () => {
    const r = record('bounce');
    r.bounce.bouncedRecipients = [
      { emailAddress: 'a@example.com', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
      { emailAddress: 'b@example.com', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
      { emailAddress: 'c@example.com', diagnosticCode: 'smtp; 554 5.7.1 rejected' },
    ];
    const event = parseSesMessage(JSON.stringify(r));
    expect(event.recipients).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect(event.bounce?.diagnostics).toBe('smtp; 550 5.1.1 user unknown\nsmtp; 554 5.7.1 rejected');
  });

  test('a bounce without bounceType is refused', () => {
    const r = record('bounce');
    delete r.bounce.bounceType;
    expect(() => parseSesMessage(JSON.stringify(r))).toThrow('SES Bounce event has no bounceType');
  });
});

describe('complaint', () => {
  test('a Complaint record parses with complaint.timestamp, complained recipients and the feedback report fields', () => {
    expectEvent(parseSesMessage(fixture('complaint')), {
      type: 'complaint',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2017-08-05T00:41:02.669Z',
      recipients: ['recipient@example.com'],
      complaint: {
        feedbackType: 'abuse',
        feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/60.0.3112.90 Safari/537.36',
      },
    });
  });

  test('complaintSubType OnAccountSuppressionList is passed on', () => {
    const r = record('complaint');
    r.complaint.complaintSubType = 'OnAccountSuppressionList';
    expect(parseSesMessage(JSON.stringify(r)).complaint?.subType).toBe('OnAccountSuppressionList');
  });
});

describe('reject', () => {
  test('a Reject record parses with the mail timestamp and the reason', () => {
    expectEvent(parseSesMessage(fixture('reject')), {
      type: 'reject',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2016-10-14T17:38:15.211Z',
      recipients: ['sender@example.com'],
      reject: { reason: 'Bad content' },
    });
  });
});

describe('open', () => {
  test('an Open record parses with open.timestamp, the IP address and the user agent', () => {
    expectEvent(parseSesMessage(fixture('open')), {
      type: 'open',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2017-08-09T22:00:19.652Z',
      recipients: ['recipient@example.com'],
      open: {
        ipAddress: '192.0.2.1',
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 10_3_3 like Mac OS X) AppleWebKit/603.3.8 (KHTML, like Gecko) Mobile/14G60',
      },
    });
  });
});

describe('click', () => {
  test('a Click record parses with click.timestamp and the clicked link', () => {
    expectEvent(parseSesMessage(fixture('click')), {
      type: 'click',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2017-08-09T23:51:25.570Z',
      recipients: ['recipient@example.com'],
      click: {
        ipAddress: '192.0.2.1',
        userAgent:
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/60.0.3112.90 Safari/537.36',
        link: 'http://docs.aws.amazon.com/ses/latest/DeveloperGuide/send-email-smtp.html',
      },
    });
  });
});

describe('rendering_failure', () => {
  test('a Rendering Failure record parses from its `failure` object with the mail timestamp', () => {
    expectEvent(parseSesMessage(fixture('rendering_failure')), {
      type: 'rendering_failure',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2018-01-22T18:43:06.197Z',
      recipients: ['recipient@example.com'],
      renderingFailure: {
        errorMessage: "Attribute 'attributeName' is not present in the rendering data.",
        templateName: 'MyTemplate',
      },
    });
  });
});

describe('delivery_delay', () => {
  test('a DeliveryDelay record parses with deliveryDelay.timestamp, delayed recipients, type and expiry', () => {
    expectEvent(parseSesMessage(fixture('delivery_delay')), {
      type: 'delivery_delay',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: MESSAGE,
      timestamp: '2020-06-16T00:25:40.095Z',
      recipients: ['recipient@example.com'],
      deliveryDelay: { delayType: 'TransientCommunicationFailure', expirationTime: '2020-06-16T00:25:40.914Z' },
    });
  });
});

describe('subscription', () => {
  test('a Subscription record parses with subscription.timestamp and the whole subscription object', () => {
    expectEvent(parseSesMessage(fixture('subscription')), {
      type: 'subscription',
      activityId: ACTIVITY,
      projectId: PROJECT,
      messageId: 'EXAMPLEe4bccb684-777bc8de-afa7-4970-92b0-f515137b1497-000000',
      timestamp: '2022-01-12T01:00:17.910Z',
      recipients: ['recipient@example.com'],
      subscription: record('subscription').subscription,
    });
  });
});

describe('tags', () => {
  test('missing tags give undefined activity and project ids', () => {
    const r = record('delivery');
    delete r.mail.tags;
    const event = parseSesMessage(JSON.stringify(r));
    expect(event.activityId).toBeUndefined();
    expect(event.projectId).toBeUndefined();
    expect(event.messageId).toBe(MESSAGE);
  });

  test('tags without ours give undefined ids too', () => {
    const r = record('delivery');
    r.mail.tags = { 'ses:configuration-set': ['ConfigSet'] };
    const event = parseSesMessage(JSON.stringify(r));
    expect(event.activityId).toBeUndefined();
    expect(event.projectId).toBeUndefined();
  });
});

describe('refusals', () => {
  test('an unknown eventType throws', () => {
    const r = record('delivery');
    r.eventType = 'Teleport';
    expect(() => parseSesMessage(JSON.stringify(r))).toThrow('Unknown SES event type "Teleport"');
  });

  test('a non-JSON body throws', () => {
    expect(() => parseSesMessage('not json at all')).toThrow('SQS message body is not JSON');
  });

  test('an SNS envelope whose Message is not JSON throws', () => {
    const e = record('sns-envelope-delivery');
    e.Message = 'hello';
    expect(() => parseSesMessage(JSON.stringify(e))).toThrow('SNS Message is not JSON');
  });

  test('an SNS subscription confirmation throws', () => {
    const e = record('sns-envelope-delivery');
    e.Type = 'SubscriptionConfirmation';
    expect(() => parseSesMessage(JSON.stringify(e))).toThrow('SNS message of type "SubscriptionConfirmation"');
  });

  test('an EventBridge event from another source throws', () => {
    const e = record('eventbridge-bounce');
    e.source = 'aws.ec2';
    expect(() => parseSesMessage(JSON.stringify(e))).toThrow('is not from aws.ses');
  });

  test('JSON that is none of the three shapes throws', () => {
    expect(() => parseSesMessage('{"hello":"world"}')).toThrow('Not an SES event');
    expect(() => parseSesMessage('[1,2]')).toThrow('is not a JSON object');
  });

  test('a record without mail.messageId throws', () => {
    const r = record('delivery');
    delete r.mail.messageId;
    expect(() => parseSesMessage(JSON.stringify(r))).toThrow('SES Delivery event has no mail.messageId');
  });
});

describe('dedupeKey', () => {
  test('is equal for the same event parsed twice, whatever the envelope', () => {
    expect(parseSesMessage(fixture('delivery')).dedupeKey).toBe(parseSesMessage(fixture('delivery')).dedupeKey);
    expect(parseSesMessage(fixture('sns-envelope-delivery')).dedupeKey).toBe(parseSesMessage(fixture('delivery')).dedupeKey);
    expect(parseSesMessage(fixture('eventbridge-bounce')).dedupeKey).toBe(parseSesMessage(fixture('bounce')).dedupeKey);
  });

  test('does not depend on the order of recipients', () => {
    const a = record('delivery');
    a.delivery.recipients = ['one@example.com', 'two@example.com'];
    const b = record('delivery');
    b.delivery.recipients = ['two@example.com', 'one@example.com'];
    expect(parseSesMessage(JSON.stringify(a)).dedupeKey).toBe(parseSesMessage(JSON.stringify(b)).dedupeKey);
  });

  test('differs between two different events', () => {
    const names = [
      'send', 'delivery', 'bounce', 'complaint', 'reject', 'open', 'click',
      'rendering_failure', 'delivery_delay', 'subscription', 'bounce-transient', 'bounce-on-account-suppression-list',
      'notification-bounce',
    ];
    const keys = names.map((n) => parseSesMessage(fixture(n)).dedupeKey);
    expect(new Set(keys).size).toBe(names.length);

    // Same message, same type, a later timestamp: a second open is a different event.
    const again = record('open');
    again.open.timestamp = '2017-08-09T22:05:00.000Z';
    expect(parseSesMessage(JSON.stringify(again)).dedupeKey).not.toBe(parseSesMessage(fixture('open')).dedupeKey);
  });
});
