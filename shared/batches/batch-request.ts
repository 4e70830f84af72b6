import { badRequest } from '../errors';
import { isEmail, normalizeEmail } from '../mail/addresses';
import { isBlank, optionalString } from '../sending/request-fields';
import { parseEnvironment } from '../sending/send-email-request';
import type { BatchContent, BatchRecipient } from './batch';
import { MAX_BATCH_RECIPIENTS } from './batch-ids';

/** A validated `POST /v1/send-batch` request (part 4.3). */
export interface BatchInput {
  content: BatchContent;
  /** Valid, lowercased, each address once, in the request's order. */
  recipients: BatchRecipient[];
  duplicatesRemoved: number;
  /** Raw `scheduled_at` (ISO 8601 or English); resolved by shared/scheduling. */
  scheduledAt?: string;
  timezone?: string;
  dryRun: boolean;
  /** Custom headers given but not applied (part 4.3 applies only the unsubscribe pair); echoed in the answer. */
  ignoredHeaders: string[];
}

/** Messages of `POST /v1/send-batch`; part 7 quotes none, so these are ours (README, "Batch sends"). */
export const BATCH_MESSAGES = {
  missing: (fields: string[]) => `Missing required fields: ${fields.join(', ')}`,
  recipientsShape: 'recipients must be a non-empty array of email addresses or {email, name, data, metadata} objects',
  tooMany: (n: number) => `Too many recipients (${n}). Maximum is ${MAX_BATCH_RECIPIENTS.toLocaleString('en-US')} per call.`,
  invalidEmail: (i: number) => `recipients[${i}].email is invalid`,
  recipientShape: (i: number) => `recipients[${i}] must be an email address or an object with an email`,
  objectField: (i: number, field: string) => `recipients[${i}].${field} must be an object`,
  nameField: (i: number) => `recipients[${i}].name must be a string of at most 256 characters`,
  emailType: 'email_type must be transactional or marketing',
} as const;

/** The only custom headers a batch applies (part 4.3), by lowercased name. */
const APPLIED_HEADERS = new Map([
  ['list-unsubscribe', 'List-Unsubscribe'],
  ['list-unsubscribe-post', 'List-Unsubscribe-Post'],
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_HEADER_VALUE = 998;

/** Validates a `POST /v1/send-batch` body; throws a 400 naming the first problem (and its index). */
export function parseBatchRequest(body: unknown): BatchInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const b = body as Record<string, unknown>;
  const templateId = parseTemplateId(b.templateId);
  const missing: string[] = [];
  if (b.recipients == null) missing.push('recipients');
  if (isBlank(b.sender)) missing.push('sender');
  if (!templateId && isBlank(b.subject)) missing.push('subject');
  if (!templateId && isBlank(b.html)) missing.push('html (or templateId)');
  if (missing.length > 0) throw badRequest(BATCH_MESSAGES.missing(missing));
  if (typeof b.sender !== 'string' || !isEmail(b.sender.trim())) throw badRequest(`Invalid sender: ${String(b.sender)}`);

  const { recipients, duplicatesRemoved } = parseRecipients(b.recipients);
  const headers = parseCustomHeaders(b.custom_headers);
  return {
    content: {
      sender: b.sender.trim(),
      senderName: optionalString(b.senderName, 'senderName', 256),
      subject: optionalString(b.subject, 'subject', 998),
      html: optionalString(b.html, 'html'),
      text: optionalString(b.text, 'text'),
      templateId,
      data: parseObject(b.data, 'data'),
      emailType: parseEmailType(b.email_type),
      customHeaders: headers.applied,
      environment: parseEnvironment(b.environment),
    },
    recipients,
    duplicatesRemoved,
    scheduledAt: optionalString(b.scheduled_at, 'scheduled_at'),
    timezone: optionalString(b.timezone, 'timezone'),
    dryRun: parseDryRun(b.dry_run),
    ignoredHeaders: headers.ignored,
  };
}

/** Recipients as strings or objects; a repeated address keeps its first entry. */
function parseRecipients(value: unknown): { recipients: BatchRecipient[]; duplicatesRemoved: number } {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(BATCH_MESSAGES.recipientsShape);
  if (value.length > MAX_BATCH_RECIPIENTS) throw badRequest(BATCH_MESSAGES.tooMany(value.length));
  const seen = new Set<string>();
  const recipients: BatchRecipient[] = [];
  value.forEach((entry: unknown, i) => {
    const recipient = parseRecipient(entry, i);
    if (seen.has(recipient.email)) return;
    seen.add(recipient.email);
    recipients.push(recipient);
  });
  return { recipients, duplicatesRemoved: value.length - recipients.length };
}

function parseRecipient(entry: unknown, i: number): BatchRecipient {
  if (typeof entry === 'string') return { email: checkedEmail(entry, i) };
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw badRequest(BATCH_MESSAGES.recipientShape(i));
  const r = entry as Record<string, unknown>;
  if (typeof r.email !== 'string') throw badRequest(BATCH_MESSAGES.invalidEmail(i));
  if (r.name != null && (typeof r.name !== 'string' || r.name.length > 256 || /[\r\n]/.test(r.name))) throw badRequest(BATCH_MESSAGES.nameField(i));
  const recipient: BatchRecipient = { email: checkedEmail(r.email, i) };
  if (typeof r.name === 'string' && r.name !== '') recipient.name = r.name;
  const data = parseObject(r.data, `recipients[${i}].data`, BATCH_MESSAGES.objectField(i, 'data'));
  const metadata = parseObject(r.metadata, `recipients[${i}].metadata`, BATCH_MESSAGES.objectField(i, 'metadata'));
  if (data) recipient.data = data;
  if (metadata) recipient.metadata = metadata;
  return recipient;
}

function checkedEmail(value: string, i: number): string {
  const email = normalizeEmail(value);
  if (!isEmail(email)) throw badRequest(BATCH_MESSAGES.invalidEmail(i));
  return email;
}

function parseObject(value: unknown, field: string, message = `${field} must be an object`): Record<string, unknown> | undefined {
  if (value == null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(message);
  return value as Record<string, unknown>;
}

function parseTemplateId(value: unknown): string | undefined {
  if (value == null || value === '') return undefined;
  if (typeof value === 'string' && UUID.test(value.trim())) return value.trim().toLowerCase();
  throw badRequest('templateId must be a template uuid');
}

function parseEmailType(value: unknown): 'transactional' | 'marketing' {
  // Batches are marketing unless told otherwise (part 4.3).
  if (value == null || value === '') return 'marketing';
  if (value === 'transactional' || value === 'marketing') return value;
  throw badRequest(BATCH_MESSAGES.emailType);
}

/** Part 4.3 applies only the two unsubscribe headers; the others are named back to the caller, not applied. */
function parseCustomHeaders(value: unknown): { applied: Record<string, string>; ignored: string[] } {
  if (value == null) return { applied: {}, ignored: [] };
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('custom_headers must be an object of header names to string values');
  const headers: Record<string, string> = {};
  const ignored: string[] = [];
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const canonical = APPLIED_HEADERS.get(name.toLowerCase());
    if (!canonical) {
      ignored.push(name);
      continue;
    }
    if (typeof raw !== 'string' || /[\r\n]/.test(raw) || raw.length > MAX_HEADER_VALUE) {
      throw badRequest(`custom_headers.${name} must be one line of at most ${MAX_HEADER_VALUE} characters`);
    }
    headers[canonical] = raw;
  }
  return { applied: headers, ignored };
}

function parseDryRun(value: unknown): boolean {
  if (value == null) return false;
  if (typeof value !== 'boolean') throw badRequest('dry_run must be a boolean');
  return value;
}
