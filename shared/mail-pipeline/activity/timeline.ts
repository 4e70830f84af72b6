import { createHash } from 'node:crypto';
import type { Activity, TimelineEvent } from './activity';

/**
 * Timeline entries the record's own fields already tell: `sent` is `sent_at`, `delivered` is
 * `delivered_at`. They are not stored (two entries of about 135 bytes each pushed a campaign
 * mail's record over 1 KB, doubling the write units of its last two updates) and are shown on
 * read instead, the same shape as a stored entry. Entries with details (bounce, complaint, delay,
 * reject...) and a second Delivery at another time are stored as before (docs/decisions.md).
 */
export const DERIVED_EVENTS = { sent: 'sent_at', delivered: 'delivered_at' } as const satisfies Record<string, keyof Activity>;

/** A stable uuid-shaped id from a key: the same key always gets the same id. */
export function eventId(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The entry a record's `*_at` field stands for; its id is the same on every read. */
export function derivedEvent(activityId: string, eventType: keyof typeof DERIVED_EVENTS, at: string): TimelineEvent {
  return { id: eventId(`${activityId}|${eventType}|${at}`), event_type: eventType, event_timestamp: at, created_at: at };
}

/** The record's timeline as shown: its stored entries and those its fields tell (unless a record written before stored them). */
export function fullTimeline(activity: Activity): TimelineEvent[] {
  const stored = activity.timeline ?? [];
  const derived = (Object.entries(DERIVED_EVENTS) as [keyof typeof DERIVED_EVENTS, keyof Activity][]).flatMap(([type, field]) => {
    const at = activity[field] as string | undefined;
    if (!at) return [];
    // Records written before kept their `sent` entry (its time may differ from sent_at by the worker's clock).
    const told = type === 'sent' ? stored.some((e) => e.event_type === 'sent') : stored.some((e) => e.event_type === type && e.event_timestamp === at);
    return told ? [] : [derivedEvent(activity.id, type, at)];
  });
  return [...stored, ...derived];
}
