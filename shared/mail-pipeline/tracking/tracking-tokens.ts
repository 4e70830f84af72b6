import { createHash } from 'node:crypto';
import { ID_BYTES, MAC_BYTES, openToken as openSigned, sealToken, uuidBytes, uuidFromBytes } from '../../platform/security/signed-tokens';

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
const PURPOSE = 'tracking:';
const LINK_HASH_BYTES = 6;
const OPEN_BYTES = 1 + ID_BYTES + MAC_BYTES;
const CLICK_BYTES = 1 + ID_BYTES + 2 + LINK_HASH_BYTES + MAC_BYTES;
/** Link indexes are stored in two bytes. */
export const MAX_TRACKED_LINKS = 0xffff;


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
  return sealToken(PURPOSE, Buffer.concat([Buffer.from([KIND_OPEN]), uuidBytes(activityId)]), secret);
}

/** The token of the `index`-th tracked link of an activity's mail. */
export function clickToken(activityId: string, index: number, link: string, secret: string): string {
  if (!Number.isInteger(index) || index < 0 || index > MAX_TRACKED_LINKS) throw new Error(`Link index out of range: ${index}`);
  const position = Buffer.alloc(2);
  position.writeUInt16BE(index);
  const hash = Buffer.from(linkHash(link), 'hex');
  return sealToken(PURPOSE, Buffer.concat([Buffer.from([KIND_CLICK]), uuidBytes(activityId), position, hash]), secret);
}

/** The activity id of a valid open token; undefined for anything else (tampered, other secret, a click token). */
export function verifyOpenToken(token: string | undefined, secret: string): string | undefined {
  const data = open(token, secret, OPEN_BYTES, KIND_OPEN);
  return data ? uuidFromBytes(data.subarray(1, 1 + ID_BYTES)) : undefined;
}

/** The content of a valid click token; undefined for anything else. */
export function verifyClickToken(token: string | undefined, secret: string): ClickToken | undefined {
  const data = open(token, secret, CLICK_BYTES, KIND_CLICK);
  if (!data) return undefined;
  return {
    activityId: uuidFromBytes(data.subarray(1, 1 + ID_BYTES)),
    index: data.readUInt16BE(1 + ID_BYTES),
    linkHash: data.subarray(1 + ID_BYTES + 2).toString('hex'),
  };
}

/** The signed data of a token of the given size and kind, or undefined. */
function open(token: string | undefined, secret: string, size: number, kind: number): Buffer | undefined {
  const data = openSigned(PURPOSE, token, secret, { min: size, max: size });
  return data && data[0] === kind ? data : undefined;
}
