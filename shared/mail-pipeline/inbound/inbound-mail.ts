import { simpleParser, type AddressObject, type HeaderLines, type ParsedMail } from 'mailparser';
import addressparser from 'nodemailer/lib/addressparser';
import { activityFromReplyAddress } from '..';

/**
 * Reading an inbound reply: the raw message as the SES receipt rule stored it, parsed with
 * mailparser, and the Reply-To token it was sent to.
 */

/**
 * Part 8: 150 KB per reply, "including base64 attachments", so the limit applies to the raw
 * message as stored (headers, bodies and encoded attachments; SES adds a few KB of Received and
 * X-SES-* headers of its own). KB = 1024 bytes.
 */
export const MAX_INBOUND_BYTES = 150 * 1024;

/** Headers in which the reply address can appear (SES's own envelope recipients are not in the object). */
const RECIPIENT_HEADERS = new Set(['to', 'cc', 'delivered-to', 'x-original-to']);

/** A local part that looks like one of our reply addresses, whatever its domain (the inbound or a branded reply domain). */
const REPLY_LOCAL_PART = /^reply\+[^@]*@/i;

export interface MailAddress {
  address: string;
  name: string | null;
}

export interface InboundAttachment {
  filename: string | null;
  content_type: string;
  /** Decoded size in bytes. */
  size: number;
  /** The decoded content, base64-encoded for JSON. */
  content: string;
}

/** What the email.inbound payload needs from a reply. */
export interface InboundReply {
  messageId: string | null;
  inReplyTo: string | null;
  from: MailAddress | null;
  to: MailAddress[];
  subject: string;
  text: string | null;
  html: string | null;
  attachments: InboundAttachment[];
}

/** The reply address a mail was sent to, and the activity its token names. */
export interface ReplyMatch {
  address: string;
  activityId: string;
}

/** The header block of a raw message: everything up to and including the first empty line. */
export function headerBlock(raw: Buffer): Buffer {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  if (crlf === -1 && lf === -1) return raw;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return raw.subarray(0, crlf + 4);
  return raw.subarray(0, lf + 2);
}

/** Parses a whole message. */
export function parseMail(raw: Buffer): Promise<ParsedMail> {
  return simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
}

/** Parses the headers only: enough to find the token and the sender of a message too large to read whole. */
export function parseHeaders(raw: Buffer): Promise<ParsedMail> {
  return parseMail(headerBlock(raw));
}

/** Every address of the To, Cc, Delivered-To and X-Original-To headers (each may occur more than once). */
export function recipientAddresses(headerLines: HeaderLines): string[] {
  const found: string[] = [];
  for (const { key, line } of headerLines) {
    if (!RECIPIENT_HEADERS.has(key.toLowerCase())) continue;
    // `line` is the raw header, name included, possibly folded.
    const value = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ');
    for (const a of addressparser(value, { flatten: true })) if (a.address) found.push(a.address.trim());
  }
  return found;
}

/** The recipients that look like reply addresses (`reply+...@`), verified or not. */
export function replyCandidates(addresses: readonly string[]): string[] {
  return addresses.filter((a) => REPLY_LOCAL_PART.test(a));
}

/** The first candidate whose token verifies with `secret`; undefined if none does. */
export function matchReplyToken(addresses: readonly string[], secret: string): ReplyMatch | undefined {
  for (const address of replyCandidates(addresses)) {
    const activityId = activityFromReplyAddress(address, secret);
    if (activityId) return { address, activityId };
  }
  return undefined;
}

/** The raw value of a header's first occurrence, unfolded ('' when absent). */
export function headerText(mail: ParsedMail, name: string): string {
  const found = mail.headerLines.find((h) => h.key.toLowerCase() === name.toLowerCase());
  return found ? found.line.slice(found.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim() : '';
}

/**
 * Auto-generated mail (RFC 3834 `Auto-Submitted`, bulk precedence, a null or daemon sender): such
 * mail never gets a bounce from us, so that two robots cannot answer each other forever.
 */
export function isAutomatic(mail: ParsedMail): boolean {
  const autoSubmitted = headerText(mail, 'auto-submitted').trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') return true;
  if (/^(bulk|junk|list)$/i.test(headerText(mail, 'precedence').trim())) return true;
  if (headerText(mail, 'return-path').trim() === '<>') return true;
  const from = firstAddress(mail.from)?.address ?? '';
  return from === '' || /^(mailer-daemon|postmaster)@/i.test(from);
}

/** SES's verdict header (`X-SES-Spam-Verdict`, `X-SES-Virus-Verdict`), added when the rule scans: PASS, FAIL, GRAY or PROCESSING_FAILED. */
export function sesVerdict(mail: ParsedMail, kind: 'spam' | 'virus'): string | undefined {
  const value = headerText(mail, `x-ses-${kind}-verdict`).trim().toUpperCase();
  return value || undefined;
}

/** The payload fields of a parsed reply. */
export function readReply(mail: ParsedMail): InboundReply {
  return {
    messageId: mail.messageId ?? null,
    inReplyTo: mail.inReplyTo ?? null,
    from: firstAddress(mail.from) ?? null,
    to: addressesOf(mail.to),
    subject: mail.subject ?? '',
    text: mail.text ?? null,
    html: typeof mail.html === 'string' ? mail.html : null,
    attachments: mail.attachments.map((a) => ({
      filename: a.filename ?? null,
      content_type: a.contentType,
      size: a.size ?? a.content.length,
      content: a.content.toString('base64'),
    })),
  };
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const out: MailAddress[] = [];
  const visit = (entries: AddressObject['value']) => {
    for (const e of entries) {
      if (e.group) visit(e.group);
      else if (e.address) out.push({ address: e.address, name: e.name || null });
    }
  };
  objects.forEach((o) => visit(o.value));
  return out;
}

function firstAddress(field: AddressObject | AddressObject[] | undefined): MailAddress | undefined {
  return addressesOf(field)[0];
}
