import { randomUUID } from 'node:crypto';
import type { Activity } from '../../../../shared/mail-pipeline/activity/activity';
import type { Lead } from '../../../../shared/audience/leads/lead';
import { fromItem, newActivityItem, statusIndexFields } from '../../../../shared/mail-pipeline/activity/activity-repository';
import { batchActivityId, newBatchId } from '../../../../shared/mail-pipeline/batches/batch-ids';
import { LONG_SUBJECT_BYTES, batchRecipientActivity, storedRecipientActivity } from '../../../../shared/mail-pipeline/batches/batch-record';
import type { Batch } from '../../../../shared/mail-pipeline/batches/batch';
import { recipientOf } from '../../../../shared/marketing/campaigns/variables';
import { applyDeliveryEvent } from '../../../../shared/mail-pipeline/delivery/apply-event';

/**
 * An item's size as DynamoDB bills it: attribute names and values in UTF-8 bytes, numbers about one
 * byte per two significant digits plus one, booleans and nulls one byte, lists and maps 3 bytes plus
 * one per element (developer guide, "Item sizes and formats").
 */
function itemSize(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => (value === undefined ? sum : sum + Buffer.byteLength(name) + valueSize(value)), 0);
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, v) => sum + 1 + valueSize(v), 0);
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return 3 + entries.reduce((sum, [k, v]) => sum + 1 + Buffer.byteLength(k) + valueSize(v), 0);
}

const CREATED = '2026-11-24T10:00:00.000Z';
const SENT = '2026-11-24T10:00:01.123Z';
const DELIVERED = '2026-11-24T10:00:03.456Z';
const TTL = Math.floor(Date.parse(CREATED) / 1000) + 90 * 86_400;
/** A message id as SES gives it in AWS: 60 characters. */
const MESSAGE_ID = `010001936b1f8c2e-${randomUUID()}-000000`;
const SUBJECT = 'S'.repeat(78);
const SENDER_NAME = 'N'.repeat(40);

/** The item at each step through `delivered`: the first write, the worker's `sent`, SES's Delivery. */
function lifeOf(activity: Activity): number[] {
  const first = { ...newActivityItem(activity, TTL), ...statusIndexFields(activity, activity.current_status) };
  // The worker's `sent` write (deliver-send.ts: transitionFromSendable).
  const sent = { ...first, current_status: 'sent', message_id: MESSAGE_ID, sent_at: SENT, updated_at: SENT, version: 2 };
  const event = { type: 'delivery' as const, activityId: activity.id, projectId: activity.project_id, messageId: MESSAGE_ID, timestamp: DELIVERED, recipients: [activity.recipient_primary], dedupeKey: `delivery|${MESSAGE_ID}` };
  const applied = applyDeliveryEvent(fromItem(sent), event, DELIVERED);
  const delivered = { ...sent, ...applied.changes, ...statusIndexFields(activity, 'delivered'), version: 3 };
  return [first, sent, delivered].map(itemSize);
}

/** The item through a hard bounce instead: the first write, `sent`, then SES's Bounce with its diagnostic. */
function bouncedLifeOf(activity: Activity, diagnostics: string): number[] {
  const first = { ...newActivityItem(activity, TTL), ...statusIndexFields(activity, activity.current_status) };
  const sent = { ...first, current_status: 'sent', message_id: MESSAGE_ID, sent_at: SENT, updated_at: SENT, version: 2 };
  const event = {
    type: 'bounce' as const,
    activityId: activity.id,
    projectId: activity.project_id,
    messageId: MESSAGE_ID,
    timestamp: DELIVERED,
    recipients: [activity.recipient_primary],
    dedupeKey: `bounce|${MESSAGE_ID}`,
    bounce: { bounceType: 'Permanent', bounceSubType: 'MailboxFull', feedbackId: `${MESSAGE_ID}-feedback`, diagnostics },
  };
  const applied = applyDeliveryEvent(fromItem(sent), event, DELIVERED);
  const bounced = { ...sent, ...applied.changes, ...statusIndexFields(activity, 'bounced'), version: 3 };
  return [first, sent, bounced].map(itemSize);
}

/** The longest subject the API takes (998 characters), in 3-byte UTF-8 characters: 2,994 bytes. */
const LONGEST_SUBJECT = '\u20ac'.repeat(998);
/** A long real-world SMTP diagnostic: the remote server's whole multi-line 5xx answer. */
const LONG_DIAGNOSTIC = `smtp; 552-5.2.2 The recipient's inbox is out of storage space. Please direct the recipient to\n552-5.2.2 https://support.google.com/mail/?p=OverQuotaPerm ${'x'.repeat(400)} - gsmtp`;

function batchOf(over: Partial<Batch> = {}): Batch {
  return {
    id: newBatchId(),
    project_id: randomUUID(),
    mode: 'live',
    status: 'sending',
    created_at: CREATED,
    updated_at: CREATED,
    recipient_count: 300,
    duplicates_removed: 0,
    chunk_size: 100,
    chunk_count: 3,
    subject: SUBJECT,
    sender_email: 'newsletter@mail.example.com',
    sender_name: SENDER_NAME,
    email_type: 'marketing',
    template_id: randomUUID(),
    ...over,
  };
}

describe('The activity record stays under 1 KB through delivered (one write unit per update)', () => {
  test('a campaign mail: 60-character message id, 78-character subject, 40-character sender name', () => {
    const batch = batchOf({ campaign_id: randomUUID() });
    const lead: Lead = { id: randomUUID(), project_id: batch.project_id, email: 'firstname.lastname@example.com', data: { first_name: 'Ada' }, storeplatform_customer_id: null, created_at: CREATED, updated_at: CREATED, version: 1 };
    const recipient = recipientOf(lead, undefined);
    const sizes = lifeOf(batchRecipientActivity(batch, recipient, batchActivityId(batch.id, 7), 'queued', { created_at: CREATED, updated_at: CREATED }));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1024);
  });

  test('a batch mail with the same subject and sender', () => {
    const batch = batchOf({ email_type: 'transactional' });
    const sizes = lifeOf(batchRecipientActivity(batch, { email: 'firstname.lastname@example.com' }, batchActivityId(batch.id, 7), 'queued', { created_at: CREATED, updated_at: CREATED }));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1024);
  });

  test('a single send with the same subject and sender, from a template', () => {
    const single: Activity = {
      id: randomUUID(),
      project_id: randomUUID(),
      created_at: CREATED,
      updated_at: CREATED,
      email_type: 'transactional',
      template_id: randomUUID(),
      subject: SUBJECT,
      sender_email: 'newsletter@mail.example.com',
      sender_name: SENDER_NAME,
      recipient_primary: 'firstname.lastname@example.com',
      current_status: 'queued',
      is_test: false,
    };
    expect(Math.max(...lifeOf(single))).toBeLessThanOrEqual(1024);
  });

  test('a campaign mail with the longest subject the API takes: the subject stays in the batch, the record under 1 KB through delivered', () => {
    const batch = batchOf({ campaign_id: randomUUID(), subject: LONGEST_SUBJECT });
    const activity = batchRecipientActivity(batch, { email: 'firstname.lastname@example.com', data: { first_name: 'Ada' } }, batchActivityId(batch.id, 7), 'queued', { created_at: CREATED, updated_at: CREATED });
    const stored = storedRecipientActivity(activity);
    expect(stored.subject).toBeUndefined();
    expect(Math.max(...lifeOf(stored))).toBeLessThanOrEqual(1024);
    // Copied into the record, the same subject would take 3 write units per update.
    expect(Math.min(...lifeOf(activity))).toBeGreaterThan(2048);
  });

  test('a bounced campaign mail, long diagnostic included: 1 KB up to sent, the bounce write 2 write units (docs/cost.md)', () => {
    for (const subject of [LONGEST_SUBJECT, SUBJECT]) {
      const batch = batchOf({ campaign_id: randomUUID(), subject });
      const stored = storedRecipientActivity(batchRecipientActivity(batch, { email: 'firstname.lastname@example.com' }, batchActivityId(batch.id, 7), 'queued', { created_at: CREATED, updated_at: CREATED }));
      const [first, sent, bounced] = bouncedLifeOf(stored, LONG_DIAGNOSTIC);
      expect(Math.max(first, sent)).toBeLessThanOrEqual(1024);
      // The diagnostic goes to the suppression entry, not the record: it does not count here.
      expect(bounced).toBeLessThanOrEqual(2048);
      expect(bouncedLifeOf(stored, 'x')[2]).toBe(bounced);
    }
  });

  test(`a subject up to ${LONG_SUBJECT_BYTES} bytes stays in the record (no read of the batch to show it), under 1 KB through delivered`, () => {
    const subject = 'S'.repeat(LONG_SUBJECT_BYTES);
    const batch = batchOf({ campaign_id: randomUUID(), subject });
    const stored = storedRecipientActivity(batchRecipientActivity(batch, { email: 'firstname.lastname@example.com' }, batchActivityId(batch.id, 7), 'queued', { created_at: CREATED, updated_at: CREATED }));
    expect(stored.subject).toBe(subject);
    expect(Math.max(...lifeOf(stored))).toBeLessThanOrEqual(1024);
  });

  test('the size rules count what DynamoDB counts', () => {
    expect(itemSize({ pk: 'ACT#1' })).toBe(7);
    expect(itemSize({ n: 1234567890 })).toBe(1 + 6);
    expect(itemSize({ b: true, l: ['ab'] })).toBe(2 + 1 + 3 + 1 + 2);
    expect(itemSize({ m: { k: 'v' } })).toBe(1 + 3 + 1 + 1 + 1);
  });
});
