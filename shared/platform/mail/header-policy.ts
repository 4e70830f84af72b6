/**
 * Which message headers a tenant may set. Two kinds are refused:
 * - service headers, which the service writes itself: addressing, the reply token, MIME structure,
 *   threading (from `in_reply_to` / `references`) and the unsubscribe headers of marketing mail;
 * - control and trace headers, which no sender writes: SES reads `X-SES-*` as instructions
 *   (configuration set, message tags, source ARN: escaping the configuration set would escape
 *   bounce, complaint and suppression handling), and the trace fields are added by the servers a
 *   message passes through (RFC 5322 3.6.6-3.6.7, RFC 5321 4.4, RFC 6376, RFC 7208, RFC 8601,
 *   RFC 8617, RFC 3798 2.2, RFC 3461), so a forged one can only mislead a receiver's filters.
 */

const SERVICE_HEADERS = new Set([
  'from', 'to', 'cc', 'bcc', 'subject', 'date', 'message-id', 'reply-to', 'sender',
  'mime-version', 'content-type', 'content-transfer-encoding', 'content-disposition', 'content-id',
  'in-reply-to', 'references', 'list-unsubscribe', 'list-unsubscribe-post',
]);

const TRACE_HEADERS = new Set([
  'received', 'return-path', 'received-spf', 'authentication-results', 'dkim-signature', 'domainkey-signature',
  'arc-seal', 'arc-message-signature', 'arc-authentication-results', 'delivered-to', 'x-original-to',
  'envelope-to', 'x-envelope-from', 'x-envelope-to', 'apparently-to', 'original-recipient', 'original-envelope-id',
  'return-receipt-to', 'errors-to', 'feedback-id',
]);

/** `X-SES-*` (SES instructions) and `Resent-*` (RFC 5322 3.6.6 trace blocks) as whole families. */
const REFUSED_PREFIXES = ['x-ses-', 'resent-'];

/** True for a header no sender sets: an SES control header or a trace field. */
export function isControlHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACE_HEADERS.has(lower) || REFUSED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** True when a tenant may not set `name` in `custom_headers`: the service writes it, or no sender does. */
export function isRefusedCustomHeader(name: string): boolean {
  return SERVICE_HEADERS.has(name.toLowerCase()) || isControlHeader(name);
}
