import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The mechanics shared by the public links' tokens (tracking, unsubscribe, view in browser):
 * `base64url(data + mac)`, the mac being HMAC-SHA256(secret, purpose + data) truncated to 128
 * bits. Each kind of token has its own purpose, so a token of one kind never verifies as another.
 */
export const MAC_BYTES = 16;
/** An activity id (a uuid) takes 16 bytes in a token. */
export const ID_BYTES = 16;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const TOKEN = /^[A-Za-z0-9_-]+$/;

/** The 16 bytes of a uuid. */
export function uuidBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new Error(`Not a uuid: ${id}`);
  return Buffer.from(id.replace(/-/g, ''), 'hex');
}

/** The uuid spelled by 16 bytes. */
export function uuidFromBytes(bytes: Buffer): string {
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function mac(purpose: string, data: Buffer, secret: string): Buffer {
  return createHmac('sha256', secret).update(purpose).update(data).digest().subarray(0, MAC_BYTES);
}

/** The URL-safe token of `data` for `purpose`. */
export function sealToken(purpose: string, data: Buffer, secret: string): string {
  return Buffer.concat([data, mac(purpose, data, secret)]).toString('base64url');
}

/**
 * The signed data of a token whose whole length (data and mac) is between `minBytes` and
 * `maxBytes`, or undefined: wrong shape, a non-canonical spelling, or a mac that does not match.
 */
export function openToken(purpose: string, token: string | undefined, secret: string, bytes: { min: number; max: number }): Buffer | undefined {
  if (!token || token.length > Math.ceil((bytes.max * 4) / 3) || !TOKEN.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  // Only the canonical spelling: base64url leaves slack in the last character's low bits.
  if (raw.length < bytes.min || raw.length > bytes.max || raw.toString('base64url') !== token) return undefined;
  const data = raw.subarray(0, raw.length - MAC_BYTES);
  return timingSafeEqual(mac(purpose, data, secret), raw.subarray(raw.length - MAC_BYTES)) ? data : undefined;
}
