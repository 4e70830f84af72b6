import { ID_BYTES, MAC_BYTES, openToken as openSigned, sealToken, uuidBytes, uuidFromBytes } from '../../platform/security/signed-tokens';

/**
 * Signed tokens of the public unsubscribe (`/u/<token>`) and view-in-browser (`/v/<token>`) pages.
 * Same style as the tracking tokens (shared/mail-pipeline/tracking/tracking-tokens.ts), with their own mac
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
const PURPOSE = 'links:';
/** Longest address an unsubscribe token carries (RFC 5321 path limit). */
const MAX_EMAIL_BYTES = 254;


export interface UnsubscribeToken {
  activityId: string;
  /** The recipient, lowercased. */
  email: string;
}

/** The token of the unsubscribe link of one recipient of one activity. */
export function unsubscribeToken(activityId: string, email: string, secret: string): string {
  const address = Buffer.from(email.trim().toLowerCase(), 'utf8');
  if (address.length === 0 || address.length > MAX_EMAIL_BYTES) throw new Error('Unsubscribe address is empty or too long');
  return sealToken(PURPOSE, Buffer.concat([Buffer.from([KIND_UNSUBSCRIBE]), uuidBytes(activityId), address]), secret);
}

/** The token of an activity's view-in-browser link. */
export function viewToken(activityId: string, secret: string): string {
  return sealToken(PURPOSE, Buffer.concat([Buffer.from([KIND_VIEW]), uuidBytes(activityId)]), secret);
}

/** The content of a valid unsubscribe token; undefined for anything else (tampered, other secret, a view token). */
export function verifyUnsubscribeToken(token: string | undefined, secret: string): UnsubscribeToken | undefined {
  const data = open(token, secret, KIND_UNSUBSCRIBE);
  if (!data || data.length <= 1 + ID_BYTES) return undefined;
  return { activityId: uuidFromBytes(data.subarray(1, 1 + ID_BYTES)), email: data.subarray(1 + ID_BYTES).toString('utf8') };
}

/** The activity id of a valid view token; undefined for anything else. */
export function verifyViewToken(token: string | undefined, secret: string): string | undefined {
  const data = open(token, secret, KIND_VIEW);
  if (!data || data.length !== 1 + ID_BYTES) return undefined;
  return uuidFromBytes(data.subarray(1, 1 + ID_BYTES));
}

/** The signed data of a token of the given kind, or undefined. */
function open(token: string | undefined, secret: string, kind: number): Buffer | undefined {
  const data = openSigned(PURPOSE, token, secret, { min: 1 + ID_BYTES + MAC_BYTES, max: 1 + ID_BYTES + MAX_EMAIL_BYTES + MAC_BYTES });
  return data && data[0] === kind ? data : undefined;
}
