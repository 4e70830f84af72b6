import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed tokens of the public tracking endpoints (`/t/o/<token>.gif`, `/t/c/<token>`). The public
 * endpoints take these tokens, never raw ids (architecture brief, "Security basics").
 *
 * Layout, before base64url (no padding, so the token is URL-safe as it is):
 *
 *   open:  [kind=1][activity id: 16 bytes]                                            [mac: 16 bytes]  -> 44 characters
 *   click: [kind=2][activity id: 16 bytes][link index: uint16 BE][link hash: 6 bytes] [mac: 16 bytes]  -> 55 characters
 *
 * The mac is HMAC-SHA256(secret, "tracking:" + everything before it), truncated to 128 bits.
 *
 * A click token never carries the destination: the redirect target is the link at `index` of the
 * mail's stored (original) HTML, and the link hash must match that link, so a token can only ever
 * lead to a link that was in that very mail (no open redirect), even if the stored body changed.
 */

const KIND_OPEN = 1;
const KIND_CLICK = 2;
const ID_BYTES = 16;
const MAC_BYTES = 16;
const LINK_HASH_BYTES = 6;
const OPEN_BYTES = 1 + ID_BYTES + MAC_BYTES;
const CLICK_BYTES = 1 + ID_BYTES + 2 + LINK_HASH_BYTES + MAC_BYTES;
/** Link indexes are stored in two bytes. */
export const MAX_TRACKED_LINKS = 0xffff;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const TOKEN = /^[A-Za-z0-9_-]+$/;

export interface ClickToken {
  activityId: string;
  /** Position of the link among the distinct http(s) links of the mail (see extractLinks). */
  index: number;
  /** Short hash of the link (hex), checked against the link found at `index`. */
  linkHash: string;
}

/** The short hash a click token carries for its link (hex, 12 characters). */
export function linkHash(link: string): string {
  return createHash('sha256').update(link, 'utf8').digest().subarray(0, LINK_HASH_BYTES).toString('hex');
}

/** The token of an activity's open pixel. */
export function openToken(activityId: string, secret: string): string {
  return seal(Buffer.concat([Buffer.from([KIND_OPEN]), idBytes(activityId)]), secret);
}

/** The token of the `index`-th tracked link of an activity's mail. */
export function clickToken(activityId: string, index: number, link: string, secret: string): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_TRACKED_LINKS) throw new Error(`Link index out of range: ${index}`);
  const position = Buffer.alloc(2);
  position.writeUInt16BE(index);
  const hash = Buffer.from(linkHash(link), 'hex');
  return seal(Buffer.concat([Buffer.from([KIND_CLICK]), idBytes(activityId), position, hash]), secret);
}

/** The activity id of a valid open token; undefined for anything else (tampered, other secret, a click token). */
export function verifyOpenToken(token: string | undefined, secret: string): string | undefined {
  const data = open(token, secret, OPEN_BYTES, KIND_OPEN);
  return data ? uuidOf(data.subarray(1, 1 + ID_BYTES)) : undefined;
}

/** The content of a valid click token; undefined for anything else. */
export function verifyClickToken(token: string | undefined, secret: string): ClickToken | undefined {
  const data = open(token, secret, CLICK_BYTES, KIND_CLICK);
  if (!data) return undefined;
  return {
    activityId: uuidOf(data.subarray(1, 1 + ID_BYTES)),
    index: data.readUInt16BE(1 + ID_BYTES),
    linkHash: data.subarray(1 + ID_BYTES + 2).toString('hex'),
  };
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
  return createHmac('sha256', secret).update('tracking:').update(data).digest().subarray(0, MAC_BYTES);
}

function seal(data: Buffer, secret: string): string {
  return Buffer.concat([data, mac(data, secret)]).toString('base64url');
}

/** The signed data of a token of the given size and kind, or undefined. */
function open(token: string | undefined, secret: string, size: number, kind: number): Buffer | undefined {
  if (!token || token.length !== Math.ceil((size * 4) / 3) || !TOKEN.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  // Only the canonical spelling: base64url leaves slack in the last character's low bits.
  if (raw.length !== size || raw.toString('base64url') !== token) return undefined;
  const data = raw.subarray(0, size - MAC_BYTES);
  if (!timingSafeEqual(mac(data, secret), raw.subarray(size - MAC_BYTES))) return undefined;
  return data[0] === kind ? data : undefined;
}
