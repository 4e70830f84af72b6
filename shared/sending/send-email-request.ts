import { badRequest } from '../errors';
import { asAddressList, isEmail } from '../mail/addresses';
import { checkAddresses, dedupe, isBlank, optionalList, optionalString } from './request-fields';
import { ENVIRONMENT_PATTERN, SEND_LIMITS } from './limits';
import type { AttachmentInput } from '../mail/advanced-send-types';

/** A validated `POST /v1/send-email` request. */
export interface SingleSendInput {
  to: string[];
  cc: string[];
  bcc: string[];
  senderEmail: string;
  senderName?: string;
  subject?: string;
  html: string;
  text?: string;
  attachments: AttachmentInput[];
  environment?: string;
}

/** Messages of part 7 for `/v1/send-email`, to the letter (the others are ours). */
export const SEND_EMAIL_MESSAGES = {
  missing: 'Missing required fields: recipient_email, sender_email, html_body',
  recipientShape: 'recipient_email must be a non-empty string or array of strings',
  tooMany: (n: number) => `Too many recipients in recipient_email (${n}). Maximum is 50. For larger sends use /v1/send-batch.`,
  ccTooMany: 'cc accepts at most 10 addresses',
  bccTooMany: 'bcc accepts at most 10 addresses',
  attachmentsShape: 'attachments must be an array',
  attachmentsTooMany: 'attachments accepts at most 10 items',
  environmentNotConfigured: 'ENVIRONMENT_NOT_CONFIGURED',
} as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True for base64 that decodes to at least one byte (padding optional, line breaks allowed). */
function isBase64(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  return compact.length > 0 && BASE64.test(compact) && compact.replace(/=+$/, '').length % 4 !== 1;
}

/** Validates a `/v1/send-email` body in the order of part 7; throws a 400 with the first problem. */
export function parseSendEmailRequest(body: unknown): SingleSendInput {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  if (b.recipient_email == null || isBlank(b.sender_email) || isBlank(b.html_body)) throw badRequest(SEND_EMAIL_MESSAGES.missing);

  const to = asAddressList(b.recipient_email);
  if (!to || to.length === 0 || to.some((a) => a.trim() === '')) throw badRequest(SEND_EMAIL_MESSAGES.recipientShape);
  if (to.length > SEND_LIMITS.recipientsPerSingleSend) throw badRequest(SEND_EMAIL_MESSAGES.tooMany(to.length));
  checkAddresses('recipient_email', to);

  if (typeof b.sender_email !== 'string') throw badRequest('sender_email must be a string');
  const senderEmail = b.sender_email.trim();
  if (!isEmail(senderEmail)) throw badRequest(`Invalid sender_email: ${senderEmail}`);
  if (typeof b.html_body !== 'string') throw badRequest('html_body must be a string');

  const cc = optionalList(b.cc, 'cc', SEND_LIMITS.ccPerSend, SEND_EMAIL_MESSAGES.ccTooMany);
  const bcc = optionalList(b.bcc, 'bcc', SEND_LIMITS.bccPerSend, SEND_EMAIL_MESSAGES.bccTooMany);
  const attachments = parseAttachments(b.attachments);

  return {
    to: dedupe(to),
    cc: dedupe(cc),
    bcc: dedupe(bcc),
    senderEmail,
    senderName: optionalString(b.sender_name, 'sender_name'),
    subject: optionalString(b.subject, 'subject'),
    html: b.html_body,
    text: optionalString(b.text_body, 'text_body'),
    attachments,
    environment: parseEnvironment(b.environment),
  };
}

/** Validates the optional `environment` name (pattern and length of part 8). */
export function parseEnvironment(value: unknown): string | undefined {
  if (value == null || value === '') return undefined;
  if (typeof value !== 'string' || !ENVIRONMENT_PATTERN.test(value) || value.length > SEND_LIMITS.environmentMaxLength) {
    throw badRequest('environment must match [a-zA-Z0-9_.-] and be at most 64 characters');
  }
  return value;
}

/** Validates an attachments array: count, and per item a filename and exactly one of url or content. */
export function parseAttachments(value: unknown): AttachmentInput[] {
  if (value == null) return [];
  if (!Array.isArray(value)) throw badRequest(SEND_EMAIL_MESSAGES.attachmentsShape);
  if (value.length > SEND_LIMITS.attachmentsPerEmail) throw badRequest(SEND_EMAIL_MESSAGES.attachmentsTooMany);
  return value.map((raw, i) => {
    const at = `attachments[${i}]`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest(`${at} must be an object`);
    const a = raw as Record<string, unknown>;
    if (typeof a.filename !== 'string' || a.filename.trim() === '') throw badRequest(`${at}.filename is required`);
    const hasUrl = a.url != null && a.url !== '';
    const hasContent = a.content != null && a.content !== '';
    if (hasUrl === hasContent) throw badRequest(`${at} needs exactly one of url or content`);
    if (hasUrl && (typeof a.url !== 'string' || !/^https?:\/\/[^\s]+$/i.test(a.url))) throw badRequest(`${at}.url must be an http or https URL`);
    if (hasContent && (typeof a.content !== 'string' || !isBase64(a.content))) throw badRequest(`${at}.content must be base64`);
    if (a.contentType != null && typeof a.contentType !== 'string') throw badRequest(`${at}.contentType must be a string`);
    return {
      filename: a.filename.trim(),
      url: hasUrl ? (a.url as string) : undefined,
      content: hasContent ? (a.content as string) : undefined,
      contentType: (a.contentType as string | undefined) || undefined,
    };
  });
}
