import { badRequest } from '../errors';
import { asAddressList, isEmail } from '../mail/addresses';
import type { AdvancedEmailType, AdvancedSendInput, SendSource } from '../mail/advanced-send-types';
import { isRefusedCustomHeader } from '../mail/header-policy';
import { SEND_LIMITS } from './limits';
import { checkAddresses, dedupe, isBlank, optionalList, optionalString } from './request-fields';
import { SEND_EMAIL_MESSAGES, parseAttachments, parseEnvironment } from './send-email-request';

/** Messages of `POST /send-email`; part 7 quotes only the scheduling one, the rest are ours. */
export const ADVANCED_SEND_MESSAGES = {
  missing: (fields: string[]) => `Missing required fields: ${fields.join(', ')}`,
  recipientShape: 'recipient must be a non-empty string or array of strings',
  tooMany: (n: number) => `Too many recipients in recipient (${n}). Maximum is 50. For larger sends use /v1/send-batch.`,
  pastSchedule: 'scheduled_at must be in the future',
  emailType: 'email_type must be transactional or marketing',
  source: 'x-source must be one of api, platform, test',
  reservedHeader: (name: string) => `custom_headers may not set ${name}`,
} as const;

/** RFC 5322 field names: printable ASCII without the colon. */
const HEADER_NAME = /^[!-9;-~]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SOURCES: readonly SendSource[] = ['api', 'platform', 'test'];
const MAX_CUSTOM_HEADERS = 20;
const MAX_HEADER_VALUE = 998;

/** Validates a `POST /send-email` body and its `x-source` header; throws a 400 with the first problem. */
export function parseAdvancedSendRequest(body: unknown, headers: Readonly<Record<string, string | undefined>> = {}): AdvancedSendInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const b = body as Record<string, unknown>;

  const templateId = parseTemplateId(b.templateId);
  const missing: string[] = [];
  if (b.recipient == null || b.recipient === '') missing.push('recipient');
  if (isBlank(b.sender)) missing.push('sender');
  if (isBlank(b.subject) && !templateId) missing.push('subject');
  if (isBlank(b.html) && !templateId) missing.push('html (or templateId)');
  if (missing.length > 0) throw badRequest(ADVANCED_SEND_MESSAGES.missing(missing));

  const recipients = asAddressList(b.recipient);
  if (!recipients || recipients.length === 0 || recipients.some((a) => a.trim() === '')) throw badRequest(ADVANCED_SEND_MESSAGES.recipientShape);
  if (recipients.length > SEND_LIMITS.recipientsPerSingleSend) throw badRequest(ADVANCED_SEND_MESSAGES.tooMany(recipients.length));
  checkAddresses('recipient', recipients);

  if (typeof b.sender !== 'string' || !isEmail(b.sender.trim())) throw badRequest(`Invalid sender: ${String(b.sender)}`);
  const emailType = parseEmailType(b.email_type);

  return {
    recipients: dedupe(recipients),
    sender: b.sender.trim(),
    senderName: optionalString(b.senderName, 'senderName'),
    subject: optionalString(b.subject, 'subject'),
    html: optionalString(b.html, 'html'),
    templateId,
    data: parseData(b.data),
    emailType,
    campaignId: optionalUuid(b.campaign_id, 'campaign_id'),
    automationRunId: optionalUuid(b.automation_run_id, 'automation_run_id'),
    scheduledAt: optionalString(b.scheduled_at, 'scheduled_at'),
    timezone: optionalString(b.timezone, 'timezone'),
    cc: dedupe(optionalList(b.cc, 'cc', SEND_LIMITS.ccPerSend, SEND_EMAIL_MESSAGES.ccTooMany)),
    bcc: dedupe(optionalList(b.bcc, 'bcc', SEND_LIMITS.bccPerSend, SEND_EMAIL_MESSAGES.bccTooMany)),
    attachments: parseAttachments(b.attachments),
    text: optionalString(b.text, 'text'),
    customHeaders: parseCustomHeaders(b.custom_headers),
    inReplyTo: parseMessageId(b.in_reply_to, 'in_reply_to'),
    references: parseReferences(b.references),
    threadId: optionalString(b.thread_id, 'thread_id', 256),
    dryRun: parseBoolean(b.dry_run, 'dry_run'),
    environment: parseEnvironment(b.environment),
    source: parseSource(headers['x-source']),
  };
}

/** A template by uuid, or by its numeric internal id (as GET /v1/templates/:id accepts). */
function parseTemplateId(value: unknown): string | undefined {
  if (value == null || value === '') return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && (UUID.test(value.trim()) || /^[1-9]\d{0,15}$/.test(value.trim()))) return value.trim().toLowerCase();
  throw badRequest('templateId must be a template uuid or internal id');
}

function parseEmailType(value: unknown): AdvancedEmailType {
  if (value == null || value === '') return 'transactional';
  if (value === 'transactional' || value === 'marketing') return value;
  throw badRequest(ADVANCED_SEND_MESSAGES.emailType);
}

function parseSource(value: string | undefined): SendSource | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const source = value.trim().toLowerCase() as SendSource;
  if (!SOURCES.includes(source)) throw badRequest(ADVANCED_SEND_MESSAGES.source);
  return source;
}

function parseData(value: unknown): Record<string, unknown> | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('data must be an object');
  return value as Record<string, unknown>;
}

/** Extra headers, refused when they would override what the service writes or break the header block. */
function parseCustomHeaders(value: unknown): Record<string, string> {
  if (value == null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('custom_headers must be an object of header names to string values');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_CUSTOM_HEADERS) throw badRequest(`custom_headers accepts at most ${MAX_CUSTOM_HEADERS} headers`);
  const headers: Record<string, string> = {};
  for (const [name, raw] of entries) {
    if (!HEADER_NAME.test(name)) throw badRequest(`custom_headers has an invalid header name: ${name}`);
    if (isRefusedCustomHeader(name)) throw badRequest(ADVANCED_SEND_MESSAGES.reservedHeader(name));
    if (typeof raw !== 'string' && typeof raw !== 'number') throw badRequest(`custom_headers.${name} must be a string`);
    const text = String(raw);
    // A line break would let a value start a header of its own.
    if (/[\r\n]/.test(text) || text.length > MAX_HEADER_VALUE) throw badRequest(`custom_headers.${name} must be one line of at most ${MAX_HEADER_VALUE} characters`);
    headers[name] = text;
  }
  return headers;
}

/** A Message-ID, written with its angle brackets whether or not the caller gave them. */
function parseMessageId(value: unknown, field: string): string | undefined {
  const text = optionalString(value, field, 998)?.trim();
  if (text === undefined || text === '') return undefined;
  const id = text.startsWith('<') ? text : `<${text}>`;
  if (!/^<[^<>\s]+>$/.test(id)) throw badRequest(`${field} must be a Message-ID such as <id@example.com>`);
  return id;
}

/** `references`: one id, several separated by spaces, or an array of ids. */
function parseReferences(value: unknown): string[] {
  if (value == null || value === '') return [];
  const list = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
  if (!list) throw badRequest('references must be a string or array of strings');
  return list.map((id) => parseMessageId(id, 'references') as string);
}

function optionalUuid(value: unknown, field: string): string | undefined {
  if (value == null || value === '') return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) throw badRequest(`${field} must be a uuid`);
  return value.toLowerCase();
}

function parseBoolean(value: unknown, field: string): boolean {
  if (value == null) return false;
  if (typeof value !== 'boolean') throw badRequest(`${field} must be a boolean`);
  return value;
}
