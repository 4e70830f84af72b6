/**
 * Turns one SQS message body carrying an Amazon SES event into a normalized DeliveryEvent.
 *
 * The same SES event record can reach our queue in three wrappings, depending on how the
 * configuration set's destination and the queue subscription are set up:
 *  - SNS → SQS, raw message delivery off: an SNS envelope whose `Message` is the record as a JSON *string*;
 *  - SNS → SQS, raw message delivery on: the record itself;
 *  - EventBridge → SQS: an EventBridge event (`source: 'aws.ses'`) whose `detail` is the record.
 * All three normalize to the same DeliveryEvent (and the same dedupeKey), so switching the wiring is harmless.
 *
 * Record format: "Contents of event data that Amazon SES publishes to Amazon SNS" (SES developer guide).
 */
import { createHash } from 'node:crypto';

export type SesEventType =
  | 'send'
  | 'delivery'
  | 'bounce'
  | 'complaint'
  | 'reject'
  | 'open'
  | 'click'
  | 'rendering_failure'
  | 'delivery_delay'
  | 'subscription';

export interface DeliveryEvent {
  type: SesEventType;
  /** From the `activity_id` tag (mail.tags.activity_id[0]); undefined when absent. */
  activityId?: string;
  projectId?: string;
  /** SES message id (mail.messageId). */
  messageId: string;
  /** When the event happened (the event's own timestamp: delivery.timestamp, bounce.timestamp, ...; else mail.timestamp). ISO 8601. */
  timestamp: string;
  /** Recipients the event concerns (bounced/complained/delivered/delayed recipients; else mail.destination). Lowercased. */
  recipients: string[];
  bounce?: { bounceType: string; bounceSubType: string; feedbackId?: string; diagnostics?: string };
  /** subType is SES's `complaintSubType`: null, or OnAccountSuppressionList (SES did not actually send). */
  complaint?: { feedbackType?: string; feedbackId?: string; userAgent?: string; subType?: string };
  reject?: { reason: string };
  renderingFailure?: { errorMessage: string; templateName?: string };
  deliveryDelay?: { delayType: string; expirationTime?: string };
  /** `machine`: our pixel's verdict (shared/mail-pipeline/tracking/machine-open.ts); absent for the provider's own open events. */
  open?: { ipAddress?: string; userAgent?: string; machine?: boolean };
  click?: { ipAddress?: string; userAgent?: string; link: string };
  subscription?: Record<string, unknown>;
  /** A stable key for de-duplication of the same event delivered twice: type + messageId + timestamp + recipients. */
  dedupeKey: string;
}

type Json = Record<string, unknown>;

/** SES `eventType` (or the older identity-notification `notificationType`) → our type, and the record key holding its details. */
const EVENT_TYPES: Record<string, { type: SesEventType; key: string }> = {
  Send: { type: 'send', key: 'send' },
  Delivery: { type: 'delivery', key: 'delivery' },
  Bounce: { type: 'bounce', key: 'bounce' },
  Complaint: { type: 'complaint', key: 'complaint' },
  Reject: { type: 'reject', key: 'reject' },
  Open: { type: 'open', key: 'open' },
  Click: { type: 'click', key: 'click' },
  // Note the space, and that the details live under `failure`, not `renderingFailure`.
  'Rendering Failure': { type: 'rendering_failure', key: 'failure' },
  DeliveryDelay: { type: 'delivery_delay', key: 'deliveryDelay' },
  Subscription: { type: 'subscription', key: 'subscription' },
};

/**
 * EventBridge `detail-type` names for SES sending events (EventBridge events reference, "Amazon SES events").
 * Only a fallback: the `detail` record normally carries `eventType` itself.
 */
const EVENTBRIDGE_DETAIL_TYPES: Record<string, string> = {
  'Email Sent': 'Send',
  'Email Delivered': 'Delivery',
  'Email Bounced': 'Bounce',
  'Email Complaint Received': 'Complaint',
  'Email Rejected': 'Reject',
  'Email Opened': 'Open',
  'Email Clicked': 'Click',
  'Email Rendering Failed': 'Rendering Failure',
  'Email Delivery Delayed': 'DeliveryDelay',
  'Email Subscribed': 'Subscription',
};

/**
 * Parses one SQS message body: an SNS envelope ({Type:'Notification', Message:'<json>'}), a raw SES event (raw message
 * delivery), or an EventBridge event ({'detail-type', source:'aws.ses', detail:{...}}). Throws a descriptive Error on
 * anything else, including a known wrapper around something that is not an SES sending event.
 */
export function parseSesMessage(body: string): DeliveryEvent {
  const outer = parseObject(body, 'SQS message body');

  // SNS envelope. Other SNS message types (SubscriptionConfirmation, ...) carry no SES event.
  if (typeof outer.Type === 'string' && typeof outer.TopicArn === 'string') {
    if (outer.Type !== 'Notification') throw new Error(`SNS message of type "${outer.Type}" is not an SES event notification`);
    if (typeof outer.Message !== 'string') throw new Error('SNS notification has no string Message');
    return normalize(parseObject(outer.Message, 'SNS Message'));
  }

  // EventBridge event.
  if ('detail-type' in outer || 'detail' in outer) {
    if (outer.source !== 'aws.ses') throw new Error(`EventBridge event from source "${String(outer.source)}" is not from aws.ses`);
    const detail = asObject(outer.detail);
    if (!detail) throw new Error('EventBridge event has no detail object');
    const named = detail.eventType !== undefined || detail.notificationType !== undefined;
    const fallback = EVENTBRIDGE_DETAIL_TYPES[String(outer['detail-type'])];
    return normalize(named || !fallback ? detail : { ...detail, eventType: fallback });
  }

  // Raw SES record (SNS raw message delivery).
  if ('eventType' in outer || 'notificationType' in outer) return normalize(outer);

  throw new Error('Not an SES event: expected an SNS notification, an EventBridge event or an SES event record');
}

function normalize(record: Json): DeliveryEvent {
  const name = record.eventType ?? record.notificationType;
  const known = typeof name === 'string' && Object.hasOwn(EVENT_TYPES, name) ? EVENT_TYPES[name] : undefined;
  if (!known) throw new Error(`Unknown SES event type "${String(name)}"`);
  const { type, key } = known;

  const mail = asObject(record.mail);
  if (!mail) throw new Error(`SES ${name} event has no mail object`);
  const messageId = str(mail.messageId);
  if (!messageId) throw new Error(`SES ${name} event has no mail.messageId`);

  // Send, Reject and Rendering Failure details have no timestamp of their own: they happen at send time.
  const details = asObject(record[key]) ?? {};
  const timestamp = str(details.timestamp) ?? str(mail.timestamp);
  if (!timestamp) throw new Error(`SES ${name} event ${messageId} has no timestamp`);

  const tags = asObject(mail.tags) ?? {};
  const event: Omit<DeliveryEvent, 'dedupeKey'> = clean({
    type,
    activityId: firstTag(tags, 'activity_id'),
    projectId: firstTag(tags, 'project_id'),
    messageId,
    timestamp,
    recipients: recipientsOf(type, details, mail),
    ...specifics(type, name as string, details),
  });
  return { ...event, dedupeKey: dedupeKey(event) };
}

/** The per-type part of the event; throws when a field the type cannot do without is missing. */
function specifics(type: SesEventType, name: string, d: Json): Partial<DeliveryEvent> {
  const need = (field: string): string => {
    const value = str(d[field]);
    if (value === undefined) throw new Error(`SES ${name} event has no ${field}`);
    return value;
  };
  switch (type) {
    case 'bounce': {
      // Diagnostic codes are per recipient; keep each distinct one (usually there is just one).
      const codes = [...new Set(list(d.bouncedRecipients).map((r) => str(asObject(r)?.diagnosticCode)).filter(isString))];
      return {
        bounce: clean({
          bounceType: need('bounceType'),
          bounceSubType: need('bounceSubType'),
          feedbackId: str(d.feedbackId),
          diagnostics: codes.length ? codes.join('\n') : undefined,
        }),
      };
    }
    case 'complaint':
      return {
        complaint: clean({
          feedbackType: str(d.complaintFeedbackType),
          feedbackId: str(d.feedbackId),
          userAgent: str(d.userAgent),
          subType: str(d.complaintSubType),
        }),
      };
    case 'reject':
      return { reject: { reason: need('reason') } };
    case 'rendering_failure':
      return { renderingFailure: clean({ errorMessage: need('errorMessage'), templateName: str(d.templateName) }) };
    case 'delivery_delay':
      return { deliveryDelay: clean({ delayType: need('delayType'), expirationTime: str(d.expirationTime) }) };
    case 'open':
      return { open: clean({ ipAddress: str(d.ipAddress), userAgent: str(d.userAgent) }) };
    case 'click':
      return { click: clean({ ipAddress: str(d.ipAddress), userAgent: str(d.userAgent), link: need('link') }) };
    case 'subscription':
      return { subscription: d };
    default:
      return {};
  }
}

/** Who the event is about: a bounce or delay may concern only some of the message's recipients. */
function recipientsOf(type: SesEventType, d: Json, mail: Json): string[] {
  const addresses = (field: string) => list(d[field]).map((r) => str(asObject(r)?.emailAddress));
  const specific =
    type === 'bounce' ? addresses('bouncedRecipients')
    : type === 'complaint' ? addresses('complainedRecipients')
    : type === 'delivery_delay' ? addresses('delayedRecipients')
    : type === 'delivery' ? list(d.recipients).map(str)
    : [];
  const chosen = specific.filter(isString);
  return (chosen.length ? chosen : list(mail.destination).map(str).filter(isString)).map((a) => a.toLowerCase());
}

/**
 * Hashed so the key has a fixed size whatever the recipient count (it is meant for a DynamoDB key),
 * with recipients sorted so their order in the record does not matter.
 */
function dedupeKey(e: Pick<DeliveryEvent, 'type' | 'messageId' | 'timestamp' | 'recipients'>): string {
  const material = JSON.stringify([e.type, e.messageId, e.timestamp, [...e.recipients].sort()]);
  return createHash('sha256').update(material).digest('hex');
}

function firstTag(tags: Json, name: string): string | undefined {
  return str(list(tags[name])[0]);
}

function parseObject(text: string, what: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${what} is not JSON: ${text.slice(0, 80)}`);
  }
  const object = asObject(value);
  if (!object) throw new Error(`${what} is not a JSON object`);
  return object;
}

function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}

/** Drops undefined fields so optional parts are absent rather than present-but-undefined. */
function clean<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
