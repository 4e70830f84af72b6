import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Reply-To tokens: `reply+<activity id hex><signature>@<inbound domain>`. The signature (64 bits of
 * HMAC-SHA256) stops anyone from forging replies onto another activity. 54 characters, within the
 * 64 allowed for a local part; lowercase so that case-folding mail servers keep it intact.
 */
const SIGNATURE_HEX = 16;

/** The Reply-To address that routes replies to `activityId` back to the service. */
export function replyAddress(activityId: string, inboundDomain: string, secret: string): string {
  const id = activityId.replace(/-/g, '').toLowerCase();
  return `reply+${id}${sign(id, secret)}@${inboundDomain}`;
}

/**
 * The Reply-To of a mail: the caller's own, else the tracked reply address when the deployment
 * receives mail; none otherwise (a reply to an address nobody receives for would bounce).
 */
export function mailReplyTo(
  cfg: { RECEIVING: 'on' | 'off'; INBOUND_DOMAIN: string },
  activityId: string,
  callerReplyTo: string | undefined,
  secret: string,
): string | undefined {
  if (callerReplyTo !== undefined) return callerReplyTo;
  return cfg.RECEIVING === 'on' ? replyAddress(activityId, cfg.INBOUND_DOMAIN, secret) : undefined;
}

/** The activity id a reply address carries, or undefined if it is not ours or was tampered with. */
export function activityFromReplyAddress(address: string, secret: string): string | undefined {
  const match = /^reply\+([0-9a-f]{32})([0-9a-f]{16})@/i.exec(address.trim());
  if (!match) return undefined;
  const id = match[1].toLowerCase();
  const expected = Buffer.from(sign(id, secret));
  const given = Buffer.from(match[2].toLowerCase());
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
}

function sign(id: string, secret: string): string {
  return createHmac('sha256', secret).update(`reply:${id}`).digest('hex').slice(0, SIGNATURE_HEX);
}
