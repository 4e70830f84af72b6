import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens of the public unsubscribe (`/u/<token>`) and view-in-browser (`/v/<token>`) pages.
 * Same style as the tracking tokens (shared/tracking/tracking-tokens.ts), with their own mac
 * purpose ("links:"), so a tracking token never verifies here and the other way round.
 *
 * Layout, before base64url (no padding):
 *
 *   unsubscribe: [kind=1][activity id: 16 bytes][recipient email, UTF-8, lowercased][mac: 16 bytes]
 *   view:        [kind=2][activity id: 16 bytes]                                    [mac: 16 bytes]
 *
 * The mac is HMAC-SHA256(secret, "links:" + everything before it), truncated to 128 bits.
 */

const KIND_UNSUBSCRIBE = 1;
const KIND_VIEW = 2;
const ID_BYTES = 16;
const MAC_BYTES = 16;
/** Longest address an unsubscribe token carries (RFC 5321 path limit). */
const MAX_EMAIL_BYTES = 254;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const TOKEN = /^[A-Za-z0-9_-]+$/;

export interface UnsubscribeToken {
  activityId: string;
  /** The recipient, lowercased. */
  email: string;
}

/** The token of the unsubscribe link of one recipient of one activity. */
export function unsubscribeToken(activityId: string, email: string, secret: string): string {
  const address = Buffer.from(email.trim().toLowerCase(), 'utf8');
  if (address.length === 0 || address.length > MAX_EMAIL_BYTES) throw new Error('Unsubscribe address is empty or too long');
  return seal(Buffer.concat([Buffer.from([KIND_UNSUBSCRIBE]), idBytes(activityId), address]), secret);
}

/** The token of an activity's view-in-browser link. */
export function viewToken(activityId: string, secret: string): string {
  return seal(Buffer.concat([Buffer.from([KIND_VIEW]), idBytes(activityId)]), secret);
}

/** The content of a valid unsubscribe token; undefined for anything else (tampered, other secret, a view token). */
export function verifyUnsubscribeToken(token: string | undefined, secret: string): UnsubscribeToken | undefined {
  const data = open(token, secret, KIND_UNSUBSCRIBE);
  if (!data || data.length <= 1 + ID_BYTES) return undefined;
  return { activityId: uuidOf(data.subarray(1, 1 + ID_BYTES)), email: data.subarray(1 + ID_BYTES).toString('utf8') };
}

/** The activity id of a valid view token; undefined for anything else. */
export function verifyViewToken(token: string | undefined, secret: string): string | undefined {
  const data = open(token, secret, KIND_VIEW);
  if (!data || data.length !== 1 + ID_BYTES) return undefined;
  return uuidOf(data.subarray(1, 1 + ID_BYTES));
}

function idBytes(activityId: string): Buffer {
  if (!UUID.test(activityId)) throw new Error(`Not a uuid: ${activityId}`);
  return Buffer.from(activityId.replace(/-/g, ''), 'hex');
}

function uuidOf(bytes: Buffer): string {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function mac(data: Buffer, secret: string): Buffer {
  return createHmac('sha256', secret).update('links:').update(data).digest().subarray(0, MAC_BYTES);
}

function seal(data: Buffer, secret: string): string {
  return Buffer.concat([data, mac(data, secret)]).toString('base64url');
}

/** The signed data of a token of the given kind, or undefined. */
function open(token: string | undefined, secret: string, kind: number): Buffer | undefined {
  const maxChars = Math.ceil(((1 + ID_BYTES + MAX_EMAIL_BYTES + MAC_BYTES) * 4) / 3);
  if (!token || token.length > maxChars || !TOKEN.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  // Only the canonical spelling: base64url leaves slack in the last character's low bits.
  if (raw.length < 1 + ID_BYTES + MAC_BYTES || raw.toString('base64url') !== token) return undefined;
  const data = raw.subarray(0, raw.length - MAC_BYTES);
  if (!timingSafeEqual(mac(data, secret), raw.subarray(raw.length - MAC_BYTES))) return undefined;
  return data[0] === kind ? data : undefined;
}
